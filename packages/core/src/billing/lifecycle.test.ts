import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { date, recurringFrequency } from "./arbitraries.test-support";
import { addDays, addMonthsClamped, type CivilDate, compareCivilDates, daysBetween } from "./calendar";
import {
  allocateManualPayment,
  applyCredit,
  cancellationTerms,
  checkPause,
  checkPriceChange,
  checkRemovePause,
} from "./lifecycle";
import { type BillingSchedule, chargesBetween } from "./schedule";

const monthly = (start: CivilDate, over: Partial<BillingSchedule> = {}): BillingSchedule => ({
  frequency: "monthly",
  amount: 6000,
  joining_fee: 0,
  start_date: start,
  billing_date: start,
  pauses: [],
  price_change: null,
  cancellation_effective: null,
  term_ends_at: null,
  pif_ends_at: null,
  ...over,
});

describe("checkPause", () => {
  const base = {
    today: "2026-03-10",
    pause_days_remaining: 30,
    pauses: [],
    cancellation_effective: null,
  };
  it.each([
    // start, end, remaining, ok, days or message part
    ["2026-03-10", "2026-03-24", 30, true, 14],
    ["2026-03-20", "2026-04-19", 30, true, 30],
    ["2026-03-20", "2026-04-20", 30, false, "31 days but only 30 pause days are left"],
    ["2026-03-09", "2026-03-20", 30, false, "cannot start in the past"],
    ["2026-03-20", "2026-03-20", 30, false, "must end after it starts"],
    ["2026-03-20", "2026-03-22", 1, false, "2 days but only 1 pause day is left"],
    // across the end of DST (5 April 2026): still whole days
    ["2026-04-01", "2026-04-08", 7, true, 7],
    // across a month end and a leap day
    ["2028-02-27", "2028-03-02", 4, true, 4],
  ] as const)("%s to %s with %i left", (start, end, remaining, ok, expected) => {
    const today = start.startsWith("2028") ? "2028-02-01" : "2026-03-10";
    const r = checkPause({ ...base, today, start, end, pause_days_remaining: remaining });
    expect(r.ok).toBe(ok);
    if (r.ok) expect(r.value.days).toBe(expected);
    else expect(r.error.message).toContain(expected);
  });

  it("refuses a second pause while one is not over, and allows one after it ended", () => {
    const pauses = [{ start: "2026-03-01", end: "2026-03-15" }];
    expect(checkPause({ ...base, start: "2026-03-20", end: "2026-03-25", pauses }).ok).toBe(false);
    expect(
      checkPause({ ...base, today: "2026-03-15", start: "2026-03-20", end: "2026-03-25", pauses }).ok,
    ).toBe(true);
  });

  it("refuses to pause a cancelled membership", () => {
    const r = checkPause({
      ...base,
      start: "2026-03-20",
      end: "2026-03-25",
      cancellation_effective: "2026-04-01",
    });
    expect(r.ok).toBe(false);
  });

  it("removes only a pause that has not started", () => {
    expect(checkRemovePause("2026-03-10", { start: "2026-03-11", end: "2026-03-21" })).toEqual({
      ok: true,
      value: { days_returned: 10 },
    });
    expect(checkRemovePause("2026-03-11", { start: "2026-03-11", end: "2026-03-21" }).ok).toBe(false);
  });
});

describe("cancellationTerms", () => {
  const term = (start: CivilDate) => ({
    term_ends_at: addMonthsClamped(start, 12),
    cooling_period_ends_at: addDays(start, 7),
    break_fee_basis_points: 2500,
  });

  it.each([
    // today, immediate, effective, cooling, remaining, fee
    ["2026-01-05", false, "2026-02-01", true, 0, 0], // inside cooling-off: free
    ["2026-01-08", false, "2026-02-01", false, 66000, 16500], // 11 months left × $60, 25 %
    ["2026-01-08", true, "2026-01-08", false, 66000, 16500], // immediate: Feb..Dec still due
    ["2026-06-15", false, "2026-07-01", false, 36000, 9000],
    ["2026-12-31", false, "2027-01-01", false, 0, 0], // the last period: nothing left of the term
  ] as const)(
    "term from 2026-01-01 cancelled %s immediate=%s",
    (today, immediate, effective, cooling, remaining, fee) => {
      const t = cancellationTerms({
        today,
        immediate,
        schedule: monthly("2026-01-01"),
        ...term("2026-01-01"),
      });
      expect(t).toMatchObject({
        effective,
        undo_until: effective,
        in_cooling_off: cooling,
        within_term: true,
        remaining_term_value: remaining,
        break_fee: fee,
      });
    },
  );

  it("a flexi membership ends at the paid period's end and owes nothing", () => {
    const t = cancellationTerms({
      today: "2026-03-15",
      immediate: false,
      schedule: monthly("2026-01-31"),
      term_ends_at: null,
      cooling_period_ends_at: null,
      break_fee_basis_points: 2500,
    });
    expect(t).toMatchObject({ effective: "2026-03-31", break_fee: 0, within_term: false });
  });

  it("month end: a 31st anchor ends the paid period on 28 February", () => {
    const t = cancellationTerms({
      today: "2026-02-10",
      immediate: false,
      schedule: monthly("2026-01-31"),
      term_ends_at: null,
      cooling_period_ends_at: null,
      break_fee_basis_points: 0,
    });
    expect(t.effective).toBe("2026-02-28");
  });

  it("a paused period ends later, so does the cancellation", () => {
    const t = cancellationTerms({
      today: "2026-03-15",
      immediate: false,
      schedule: monthly("2026-03-01", { pauses: [{ start: "2026-03-20", end: "2026-03-30" }] }),
      term_ends_at: null,
      cooling_period_ends_at: null,
      break_fee_basis_points: 0,
    });
    expect(t.effective).toBe("2026-04-11");
  });

  it("not started yet: takes effect on the start date, nothing is charged", () => {
    const s = monthly("2026-04-01");
    const t = cancellationTerms({
      today: "2026-03-15",
      immediate: false,
      schedule: s,
      term_ends_at: null,
      cooling_period_ends_at: null,
      break_fee_basis_points: 0,
    });
    expect(t.effective).toBe("2026-04-01");
    expect(chargesBetween({ ...s, cancellation_effective: t.effective }, "2026-01-01", "2030-01-01")).toEqual(
      [],
    );
  });
});

describe("checkPriceChange", () => {
  it.each([
    ["2026-03-01", "2026-03-31", 6000, 6500, 30, true],
    ["2026-03-01", "2026-03-30", 6000, 6500, 30, false],
    ["2026-03-01", "2026-03-30", 6000, 6000, 30, false],
    ["2026-03-01", "2026-03-02", 6000, 5500, 30, true], // a decrease needs no notice
    ["2026-03-01", "2026-03-01", 6000, 5500, 30, false], // but takes effect after today
    ["2026-03-01", "2026-03-08", 6000, 6500, 7, true],
  ] as const)("today %s effective %s %i → %i notice %i", (today, effective, from, to, notice, ok) => {
    const r = checkPriceChange({
      today,
      effective,
      current_amount: from,
      new_amount: to,
      notice_days: notice,
    });
    expect(r.ok).toBe(ok);
  });

  it("says the first date allowed", () => {
    const r = checkPriceChange({
      today: "2026-03-01",
      effective: "2026-03-15",
      current_amount: 1,
      new_amount: 2,
      notice_days: 30,
    });
    expect(r.ok ? "" : r.error.message).toBe(
      "Members must be told 30 days before a price rise: choose 31/03/2026 or later.",
    );
  });
});

describe("manual payments", () => {
  it.each([
    [5000, 12000, 5000, 0, 7000],
    [12000, 12000, 12000, 0, 0],
    [15000, 12000, 12000, 3000, 0],
    [5000, 0, 0, 5000, 0],
  ])("%i paid with %i owing", (amount, owing, debt, credit, after) => {
    expect(allocateManualPayment(amount, owing)).toEqual({ debt_paid: debt, credit, balance_after: after });
  });
  it("credit covers later payments until it runs out", () => {
    expect(applyCredit(6000, 9000)).toEqual({ credit_used: 6000, credit_left: 3000 });
    expect(applyCredit(6000, 3000)).toEqual({ credit_used: 3000, credit_left: 0 });
  });
});

describe("properties", () => {
  const pauseArb = fc
    .record({ start: date, offset: fc.integer({ min: 0, max: 120 }), days: fc.integer({ min: 1, max: 60 }) })
    .map(({ start, offset, days }) => ({
      start,
      pause: { start: addDays(start, offset), end: addDays(start, offset + days) },
    }));

  it("a pause never has a charge due inside it and never loses a period", () => {
    fc.assert(
      fc.property(pauseArb, recurringFrequency, ({ start, pause }, frequency) => {
        const base = { ...monthly(start), frequency };
        const to = addDays(start, 200);
        const without = chargesBetween(base, start, to);
        const withPause = chargesBetween(
          { ...base, pauses: [pause] },
          start,
          addDays(to, daysBetween(pause.start, pause.end)),
        );
        for (const c of withPause) {
          expect(compareCivilDates(c.due, pause.start) < 0 || compareCivilDates(c.due, pause.end) >= 0).toBe(
            true,
          );
        }
        // Periods are contiguous (nothing lost) and at least as many as without the pause.
        for (let i = 1; i < withPause.length; i++)
          expect(withPause[i].period_start).toBe(withPause[i - 1].period_end);
        expect(withPause.length).toBeGreaterThanOrEqual(without.length);
        // Periods ending before the pause are untouched (one ending on its first day is extended);
        // the period the pause falls in covers the whole pause.
        for (const c of without.filter((c) => compareCivilDates(c.period_end, pause.start) < 0))
          expect(withPause.find((w) => w.index === c.index)).toEqual(c);
        const covering = withPause.find(
          (w) =>
            compareCivilDates(w.period_start, pause.start) <= 0 &&
            compareCivilDates(pause.start, w.period_end) < 0,
        );
        if (covering) expect(compareCivilDates(covering.period_end, pause.end) >= 0).toBe(true);
      }),
      { numRuns: 80 },
    );
  }, 30_000);

  it("a cancellation inside cooling-off never costs a break fee, and nothing is charged after it takes effect", () => {
    fc.assert(
      fc.property(
        date,
        recurringFrequency,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 30 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 10000 }),
        (start, frequency, after, cooling, immediate, bp) => {
          const schedule = { ...monthly(start), frequency };
          const today = addDays(start, after);
          const t = cancellationTerms({
            today,
            immediate,
            schedule,
            term_ends_at: addMonthsClamped(start, 12),
            cooling_period_ends_at: addDays(start, cooling),
            break_fee_basis_points: bp,
          });
          if (compareCivilDates(today, addDays(start, cooling)) < 0) {
            expect(t.in_cooling_off).toBe(true);
            expect(t.break_fee).toBe(0);
          }
          expect(compareCivilDates(t.effective, today) >= 0).toBe(true);
          const later = chargesBetween(
            { ...schedule, cancellation_effective: t.effective },
            t.effective,
            addDays(t.effective, 800),
          );
          expect(later).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a price rise is never allowed inside the notice period", () => {
    fc.assert(
      fc.property(
        date,
        fc.integer({ min: 1, max: 29 }),
        fc.integer({ min: 0, max: 100000 }),
        fc.integer({ min: 0, max: 5000 }),
        (today, d, amount, rise) => {
          const r = checkPriceChange({
            today,
            effective: addDays(today, d),
            current_amount: amount,
            new_amount: amount + rise,
            notice_days: 30,
          });
          expect(r.ok).toBe(false);
        },
      ),
    );
  });
});
