/**
 * Simulation finding m109 (seed 1, 200 members, 365 days, faults): a bi_monthly member with a stub
 * and four pauses was expected (tests/reference/model.ts) to pay on 2028-07-13 and the engine took
 * nothing for that day. Diagnosis: the schedule is not the cause. With the facts as printed (pause
 * ends exclusive: the model's form), the pure schedule gives 2028-07-13 at every stage the pauses
 * became known, and the next charge after the stored end of each claimed period is the model's
 * (docs/billing.md "Pauses", "The schedule function"). This pins those dates.
 */
import { describe, expect, it } from "vitest";
import { type BillingSchedule, chargeAfter, chargesBetween } from "./schedule";

const pauses = [
  { start: "2027-11-13", end: "2027-11-18" },
  { start: "2027-12-25", end: "2028-01-08" },
  { start: "2028-05-30", end: "2028-06-03" },
  { start: "2028-08-27", end: "2028-08-30" },
];

const schedule = (known: number): BillingSchedule => ({
  frequency: "bi_monthly",
  amount: 11242,
  joining_fee: null,
  start_date: "2027-10-17",
  billing_date: "2027-10-19",
  pauses: pauses.slice(0, known),
  price_change: null,
  cancellation_effective: null,
  term_ends_at: null,
  pif_ends_at: null,
});

const dues = (s: BillingSchedule) => chargesBetween(s, "2027-10-01", "2028-09-19").map((c) => c.due);

describe("simulation m109: bi_monthly with a stub and four pauses", () => {
  it("is due on the model's days with every pause known", () => {
    expect(dues(schedule(4))).toEqual([
      "2027-10-17",
      "2027-10-19",
      "2027-12-24",
      "2028-03-09",
      "2028-05-09",
      "2028-07-13",
      "2028-09-16",
    ]);
  });

  it("charges 2028-07-13 after the period claimed on 2028-05-09, whether the May pause was known then or not", () => {
    // Claimed on 2028-05-09 before the May pause was booked: its stored end is 2028-07-09.
    const claimedEarly = { index: 4, period_end: "2028-07-09" };
    // The pause of 30 May is booked later: the next charge is the one after the stored end.
    expect(chargeAfter(schedule(3), claimedEarly)).toMatchObject({ index: 5, due: "2028-07-13" });
    // Claimed with the pause known: the stored end is 2028-07-13.
    expect(chargeAfter(schedule(3), { index: 4, period_end: "2028-07-13" })).toMatchObject({
      index: 5,
      due: "2028-07-13",
      period_end: "2028-09-13",
    });
    // The August pause (booked from 7 August) moves only the period after it.
    expect(chargeAfter(schedule(4), { index: 5, period_end: "2028-09-13" })).toMatchObject({
      index: 6,
      due: "2028-09-16",
    });
  });
});
