/**
 * Simulation finding m109 (seed 1, 200 members, 365 days, faults): a bi_monthly member with a stub
 * and four pauses was expected (tests/reference/model.ts) to pay on 2028-07-13 and the engine took
 * nothing for that day. The schedule gives the model's dates at every stage the pauses became known
 * (the first two tests; pause ends exclusive, the model's form). The cause (found with
 * `npm run simulate -- … --trace-member m109`) was what the engine asked the schedule when a
 * cancellation was undone (docs/billing.md "Cancellation, cooling-off, terms"; the last test):
 * 2 May a pause 22–26 May was booked, 9 May the period was charged with it (stored end 13 July),
 * 14 May the pause was removed (next payment back to 9 July), 16 May a cancellation at the end of the
 * paid period (9 July) removed it, 27 May the cancellation was undone and the next charge was asked
 * for after the stored end 13 July: index 6, index 5 skipped. 29 May the pause of 30 May was booked.
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

  it("after the undo of 27 May: the charge after the claimed period from today, not from its stale stored end", () => {
    // The May pause charged with the period on 9 May, since removed; the 30 May one not yet booked.
    const undone = schedule(2);
    // From the stored end (what the engine asked): the period starting 9 July is skipped.
    expect(chargeAfter(undone, { index: 4, period_end: "2028-07-13" })).toMatchObject({
      index: 6,
      due: "2028-09-09",
    });
    // From today, the earlier (what re-planning an upcoming payment asks): the period of 9 July.
    const planned = chargeAfter(undone, { index: 4, period_end: "2028-05-27" });
    expect(planned).toMatchObject({ index: 5, due: "2028-07-09", period_end: "2028-09-09" });
    // The pause of 30 May, booked on 29 May, moves it to the model's day.
    expect(chargeAfter(schedule(3), { index: 4, period_end: "2028-05-29" })).toMatchObject({
      index: 5,
      due: "2028-07-13",
    });
  });
});
