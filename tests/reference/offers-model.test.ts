/**
 * The reference model against the worked examples of docs/offers.md (issue 38): the discount of a
 * charge, the charges of a membership with a trial, a pass's count at the door. The tables are read
 * with this file's own small parser (nothing from packages/core), so the model and the engine
 * answer to the same rows independently.
 */
import { describe, expect, it } from "vitest";
import { cents, docTables } from "./doc-tables";
import {
  chargesUntil,
  type Frequency,
  type Membership,
  type Promo,
  passVisits,
  promoDiscount,
} from "./model";

const table = docTables("offers.md");
const none = (text: string) => !text || text === "none";
/** "50%" → 5000 basis points; "$10.00" → 1000 cents. */
const off = (kind: string, text: string) =>
  kind === "fixed" ? cents(text) : Math.round(Number(text.replace("%", "")) * 100);
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe("docs/offers.md: the discount on each charge", () => {
  for (const [i, row] of table("discount").entries())
    it(`row ${i + 1}: ${row.Note || `${row.Kind} ${row.Off}`}`, () => {
      const promo: Promo = {
        kind: row.Kind as Promo["kind"],
        value: off(row.Kind, row.Off),
        periods: row.Periods === "forever" ? null : Number(row.Periods),
      };
      const charge = { amount: cents(row.Amount), joining_fee: cents(row["Joining fee"]) };
      const discount = promoDiscount(promo, charge, Number(row.Charge), row.Stub === "yes");
      expect(discount).toBe(cents(row.Discount));
      expect(charge.amount - discount).toBe(cents(row.Charged));
    });
});

describe("docs/offers.md: the charges of a membership with a trial", () => {
  for (const [i, row] of table("trial-charges").entries())
    it(`row ${i + 1}: ${row.Note || row.Price}`, () => {
      const price = /^\$([\d,.]+) (\w+)/.exec(row.Price);
      if (!price) throw new Error(`not a price: ${row.Price}`);
      const promo = none(row.Promo) ? null : /^(\d+)% for (\d+)$/.exec(row.Promo);
      const m: Membership = {
        frequency: price[2] as Frequency,
        amount: cents(price[1]),
        joining_fee: cents(row["Joining fee"]),
        start: row.Starts,
        billing_date: none(row.Billing) ? row.Starts : row.Billing,
        pauses: [],
        price_change: null,
        cancellation_effective: null,
        pif_ends: null,
        trial: none(row.Trial)
          ? null
          : { days: Number(row.Trial.replace(/ days?$/, "")), amount: cents(row["Trial costs"]) },
        promo: promo ? { kind: "percent", value: Number(promo[1]) * 100, periods: Number(promo[2]) } : null,
      };
      const charge = chargesUntil(m, "2030-01-01").find((c) => c.index === Number(row.Charge));
      expect(charge).toBeDefined();
      expect(charge?.due).toBe(row.Due);
      expect(dayBefore(charge?.period_end ?? "")).toBe(row["Last day"]);
      expect(charge?.amount).toBe(cents(row.Amount));
      expect(charge?.discount ?? 0).toBe(cents(row.Discount));
    });
});

describe("docs/offers.md: a pass's count at the door", () => {
  for (const [i, row] of table("pass-entry").entries())
    it(`row ${i + 1}: ${row.Note}`, () => {
      const visits = Number(row.Visits);
      const answer = passVisits(visits, row.Ends, [row["Entry on"]], {
        used: Number(row.Used),
        last: none(row["Last visit"]) ? null : row["Last visit"],
      });
      expect(answer.usedBy[0]).toBe(row["Uses a visit"] === "yes");
      expect(visits - answer.used).toBe(Number(row.Left));
    });
});
