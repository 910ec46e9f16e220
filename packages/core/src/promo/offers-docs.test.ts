/**
 * Runs every worked example in docs/offers.md: each table preceded by `<!-- examples: NAME -->` is
 * parsed and each row becomes a test, so the document and the code cannot drift apart.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type DiscountTerms, discountOf } from "../billing/discount";
import { cents, parseExampleTables, type Row } from "../billing/doc-tables.test-support";
import { refusalOf } from "./rules";
import type { PromoCodeRecord } from "./store";

const tables = parseExampleTables(
  readFileSync(new URL("../../../../docs/offers.md", import.meta.url), "utf8"),
);
const none = (text: string) => text === "none";
const yes = (text: string) => {
  if (text !== "yes" && text !== "no") throw new Error(`Not yes/no: ${text}`);
  return text === "yes";
};

/** "50%" / "33.33%" -> basis points; "$10.00" -> cents. */
function off(kind: string, text: string): number {
  if (kind === "fixed") return cents(text);
  const m = /^(\d+)(?:\.(\d{1,2}))?%$/.exec(text);
  if (!m) throw new Error(`Not a percentage: ${text}`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

const checks: Record<string, (row: Row) => void> = {
  discount(row) {
    const terms: DiscountTerms = {
      kind: row.Kind as DiscountTerms["kind"],
      value: off(row.Kind, row.Off),
      periods: row.Periods === "forever" ? null : Number(row.Periods),
    };
    const stub = yes(row.Stub);
    const index = Number(row.Charge);
    const charge = {
      index,
      amount: cents(row.Amount),
      joining_fee: cents(row["Joining fee"]),
      is_pro_rata: stub && index === 0,
    };
    const discount = discountOf(terms, charge, stub);
    expect(discount).toBe(cents(row.Discount));
    expect(charge.amount - discount).toBe(cents(row.Charged));
  },
  "promo-refusals"(row) {
    const [offering, gym] = row.Joining.split(" at ");
    const code = {
      organisation_id: "org",
      promo_code_id: "code",
      code: "BF50",
      kind: "percent",
      value: 5_000,
      offering_ids: none(row.For) || row.For === "any" ? [] : [row.For],
      price_ids: [],
      uses: Number(row.Uses),
      archived_at: yes(row.Archived) ? "2026-11-01T00:00:00.000Z" : undefined,
      starts_on: none(row.Starts) ? undefined : row.Starts,
      ends_on: none(row.Ends) ? undefined : row.Ends,
      gym_id: row.Gym === "any" ? undefined : row.Gym,
      use_limit: none(row.Limit) ? undefined : Number(row.Limit),
    } as unknown as PromoCodeRecord;
    const reason = refusalOf(code, {
      today: row.Today,
      gym_id: gym,
      price_id: "price",
      offering_id: offering,
      used_by_member: yes(row["Used before"]),
      offering_names: code.offering_ids,
      gym_name: code.gym_id ?? gym,
    });
    expect(reason).toBe(none(row.Message) ? null : row.Message);
  },
};

describe("docs/offers.md examples", () => {
  it("has a check for every table and a table for every check", () => {
    expect([...tables.keys()].sort()).toEqual(Object.keys(checks).sort());
  });
  for (const [name, rows] of tables) {
    describe(name, () => {
      rows.forEach((row, i) => {
        it(`row ${i + 1}: ${row.Note ?? row.Message ?? ""}`, () => checks[name](row));
      });
    });
  }
});
