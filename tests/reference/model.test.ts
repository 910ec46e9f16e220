/**
 * The reference model against the worked examples of docs/billing.md. The tables are read from the
 * document here with this file's own small parser (nothing from packages/core), so the model and
 * the engine answer to the same rows independently.
 */
import { describe, expect, it } from "vitest";
import { cents, docTables, type Row } from "./doc-tables";
import {
  billingDateAllowed,
  chargesUntil,
  daysFrom,
  decideCancel,
  type Frequency,
  type Membership,
  plusMonths,
  proRata,
  startEarly,
  surchargeOn,
  termEndOf,
} from "./model";

const table = docTables("billing.md");

describe("calendar", () => {
  it.each(table("add-months"))("$Anchor + $Months months = $Result", (row) => {
    expect(plusMonths(row.Anchor, Number(row.Months))).toBe(row.Result);
  });
  it.each(table("days-between"))("$From → $To is $Days days", (row) => {
    expect(daysFrom(row.From, row.To)).toBe(Number(row.Days));
  });
});

describe("money", () => {
  it.each(table("surcharge"))("surcharge on $Amount at $Basis points bp + $Fixed", (row) => {
    expect(
      surchargeOn(cents(row.Amount), {
        basisPoints: Number(row["Basis points"]),
        fixedCents: cents(row.Fixed),
      }),
    ).toBe(cents(row.Surcharge));
  });
  it.each(table("pro-rata"))("$Frequency $Amount from $Start to $Billing date", (row) => {
    const f = row.Frequency as Frequency;
    expect(billingDateAllowed(f, row.Start, row["Billing date"])).toBe(true);
    const stub =
      row.Start === row["Billing date"] ? 0 : proRata(cents(row.Amount), f, row.Start, row["Billing date"]);
    expect(stub).toBe(cents(row["Pro-rata amount"]));
  });
  it.each(table("pro-rata-errors").filter((r) => r.Error.startsWith("billing_date")))(
    "$Frequency $Start → $Billing date is refused",
    (row) => {
      expect(billingDateAllowed(row.Frequency as Frequency, row.Start, row["Billing date"])).toBe(false);
    },
  );
  it.each(table("terms"))("$Term from $Start ends $Term end", (row) => {
    const [amount, unit] = row.Term.split(" ");
    expect(termEndOf(row.Start, Number(amount), unit as "weeks" | "months" | "years")).toBe(row["Term end"]);
  });
});

function scheduleRow(row: Row): Membership {
  const pauses =
    row.Pauses === "none"
      ? []
      : row.Pauses.split(";").map((p) => {
          const [start, end] = p.split("→").map((s) => s.trim());
          return { start, end };
        });
  const change = row["Price change"].match(/^\$([\d.,]+) from (\S+)$/);
  return {
    frequency: row.Frequency as Frequency,
    amount: cents(row.Amount),
    joining_fee: cents(row["Joining fee"]),
    start: row.Start,
    billing_date: row["Billing date"],
    pauses,
    price_change: change ? { effective: change[2], amount: cents(change[1]) } : null,
    cancellation_effective: row["Cancellation effective"] === "none" ? null : row["Cancellation effective"],
    pif_ends: row["PIF ends"] === "none" ? null : row["PIF ends"],
  };
}

describe("the schedule", () => {
  const schedules = new Map(table("schedules").map((r) => [r.Schedule, scheduleRow(r)]));
  it.each(table("schedule-charges"))("$Schedule charge $Index: $Due $Amount ($Note)", (row) => {
    const m = schedules.get(row.Schedule);
    if (!m) throw new Error(row.Schedule);
    const charges = chargesUntil(m, "2030-12-31");
    const charge = charges.find((c) => c.index === Number(row.Index));
    if (row.Due === "none") {
      expect(charge).toBeUndefined();
      return;
    }
    expect(charge).toMatchObject({
      due: row.Due,
      period_end: row["Period end"],
      amount: cents(row.Amount),
      joining_fee: cents(row["Joining fee"]),
      pro_rata: row["Pro-rata"] === "yes",
    });
  });

  it("periods chain with no gap and a pause-free year of monthly charges is twelve amounts", () => {
    const m: Membership = {
      frequency: "monthly",
      amount: 6000,
      joining_fee: 0,
      start: "2028-01-31",
      billing_date: "2028-01-31",
      pauses: [],
      price_change: null,
      cancellation_effective: null,
      pif_ends: null,
    };
    const charges = chargesUntil(m, "2029-01-30");
    expect(charges.map((c) => c.due)).toEqual([
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
      "2028-04-30",
      "2028-05-31",
      "2028-06-30",
      "2028-07-31",
      "2028-08-31",
      "2028-09-30",
      "2028-10-31",
      "2028-11-30",
      "2028-12-31",
    ]);
    for (let i = 1; i < charges.length; i++) expect(charges[i].period_start).toBe(charges[i - 1].period_end);
  });
});

describe("cancellation", () => {
  it.each(table("cancellation"))("$Frequency from $Start cancelled $Today ($Note)", (row) => {
    const m: Membership = {
      frequency: row.Frequency as Frequency,
      amount: cents(row.Amount),
      joining_fee: 0,
      start: row.Start,
      billing_date: row.Start,
      pauses: [],
      price_change: null,
      cancellation_effective: null,
      pif_ends: null,
    };
    const decision = decideCancel(m, row.Today, row.Immediate === "yes", {
      ends: termEndOf(row.Start, 12, "months"),
      cooling_ends: daysFromPlus(row.Start, 7),
      break_fee_bp: 2500,
    });
    expect(decision).toEqual({
      effective: row["Takes effect"],
      in_cooling_off: row["Cooling-off"] === "yes",
      remaining_term_value: cents(row.Remaining),
      break_fee: cents(row["Break fee"]),
    });
  });

  it("a cancellation inside a paused period takes effect at the extended end", () => {
    const m: Membership = {
      frequency: "monthly",
      amount: 6000,
      joining_fee: 0,
      start: "2025-01-31",
      billing_date: "2025-01-31",
      pauses: [{ start: "2025-03-10", end: "2025-03-20" }],
      price_change: null,
      cancellation_effective: null,
      pif_ends: null,
    };
    expect(decideCancel(m, "2025-03-05", false, null).effective).toBe("2025-04-10");
  });
});

describe("start early", () => {
  it("a billing date equal to the start moves with it; a later one is kept while allowed", () => {
    const base: Membership = {
      frequency: "monthly",
      amount: 6000,
      joining_fee: 0,
      start: "2026-03-20",
      billing_date: "2026-03-20",
      pauses: [],
      price_change: null,
      cancellation_effective: null,
      pif_ends: null,
    };
    expect(startEarly(base, "2026-03-10")).toMatchObject({ start: "2026-03-10", billing_date: "2026-03-10" });
    expect(startEarly({ ...base, billing_date: "2026-04-01" }, "2026-03-10")).toMatchObject({
      billing_date: "2026-04-01",
    });
    expect(startEarly({ ...base, billing_date: "2026-04-15" }, "2026-03-10")).toMatchObject({
      billing_date: "2026-03-10",
    });
  });
});

function daysFromPlus(day: string, n: number) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
