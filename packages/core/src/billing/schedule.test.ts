import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cents, date, dstSeasonDate, monthEndDate, recurringFrequency } from "./arbitraries.test-support";
import { addDays, addMonthsClamped, type CivilDate, compareCivilDates, daysBetween } from "./calendar";
import { periodLength, type RecurringFrequency } from "./frequency";
import { periodStart } from "./period";
import { calculateProRata } from "./pro-rata";
import { latestProRataBillingDate } from "./pro-rata-window";
import {
  type BillingSchedule,
  chargeAfter,
  chargeCovering,
  chargesBetween,
  normalisePauses,
  type ScheduledCharge,
} from "./schedule";

const lt = (a: CivilDate, b: CivilDate) => compareCivilDates(a, b) < 0;
const ge = (a: CivilDate, b: CivilDate) => compareCivilDates(a, b) >= 0;

function schedule(overrides: Partial<BillingSchedule>): BillingSchedule {
  return {
    frequency: "monthly",
    amount: 6000,
    joining_fee: null,
    start_date: "2025-01-31",
    billing_date: "2025-01-31",
    pauses: [],
    price_change: null,
    cancellation_effective: null,
    term_ends_at: null,
    pif_ends_at: null,
    ...overrides,
  };
}

const brief = (cs: ScheduledCharge[]) => cs.map((c) => [c.period_start, c.period_end, c.amount]);

describe("schedule: examples", () => {
  it("a monthly schedule on the 31st keeps the anchor day, clamped (no pro-rata: joining fee on charge 0)", () => {
    const s = schedule({ joining_fee: 2500 });
    expect(brief(chargesBetween(s, "2025-01-01", "2025-05-01"))).toEqual([
      ["2025-01-31", "2025-02-28", 8500],
      ["2025-02-28", "2025-03-31", 6000],
      ["2025-03-31", "2025-04-30", 6000],
      ["2025-04-30", "2025-05-31", 6000],
    ]);
    expect(chargeAfter(s, null)).toMatchObject({ index: 0, joining_fee: 2500, is_pro_rata: false });
  });

  it("the pro-rata stub is pro-rata.ts's amount plus the joining fee, then the full period at the billing date", () => {
    const s = schedule({ start_date: "2025-01-20", billing_date: "2025-01-31", joining_fee: 2500 });
    const [first, second] = chargesBetween(s, "2025-01-01", "2025-03-01");
    const pr = calculateProRata({
      amount: 6000,
      billing_frequency: "monthly",
      joining_fee: 2500,
      start_date: "2025-01-20",
      billing_date: "2025-01-31",
    });
    expect(pr.ok && pr.value.first_payment_total).toBe(first.amount);
    expect(first).toEqual({
      index: 0,
      due: "2025-01-20",
      period_start: "2025-01-20",
      period_end: "2025-01-31",
      amount: 2129 + 2500,
      joining_fee: 2500,
      is_pro_rata: true,
    });
    expect(second).toMatchObject({ index: 1, period_start: "2025-01-31", amount: 6000, joining_fee: 0 });
  });

  it("a pause inside a monthly period extends it and re-anchors on the moved boundary", () => {
    const s = schedule({ pauses: [{ start: "2025-03-10", end: "2025-03-20" }] });
    expect(brief(chargesBetween(s, "2025-02-01", "2025-06-01"))).toEqual([
      ["2025-02-28", "2025-04-10", 6000],
      ["2025-04-10", "2025-05-10", 6000],
      ["2025-05-10", "2025-06-10", 6000],
    ]);
  });

  it("a pause starting on a due date moves that charge to the pause's end (the period before is extended)", () => {
    const s = schedule({ frequency: "weekly", start_date: "2025-06-02", billing_date: "2025-06-02" });
    const paused = { ...s, pauses: [{ start: "2025-06-16", end: "2025-06-23" }] };
    expect(brief(chargesBetween(paused, "2025-06-01", "2025-07-01"))).toEqual([
      ["2025-06-02", "2025-06-09", 6000],
      ["2025-06-09", "2025-06-23", 6000],
      ["2025-06-23", "2025-06-30", 6000],
      ["2025-06-30", "2025-07-07", 6000],
    ]);
  });

  it("a price change applies from the first period starting on or after its effective date", () => {
    const s = schedule({ price_change: { effective: "2025-03-15", amount: 6500 } });
    expect(chargesBetween(s, "2025-01-01", "2025-05-01").map((c) => c.amount)).toEqual([
      6000, 6000, 6500, 6500,
    ]);
  });

  it("nothing is charged for a period starting on or after cancellation takes effect", () => {
    const s = schedule({ cancellation_effective: "2025-03-31" });
    expect(brief(chargesBetween(s, "2025-01-01", "2026-01-01"))).toEqual([
      ["2025-01-31", "2025-02-28", 6000],
      ["2025-02-28", "2025-03-31", 6000],
    ]);
    expect(chargeAfter(s, { index: 1, period_end: "2025-03-31" })).toBeNull();
  });

  it("PIF is one charge covering [start_date, pif_ends_at), joining fee included", () => {
    const s = schedule({ frequency: "one_off", amount: 90000, joining_fee: 5000, pif_ends_at: "2026-01-31" });
    const first = chargeAfter(s, null);
    expect(first).toEqual({
      index: 0,
      due: "2025-01-31",
      period_start: "2025-01-31",
      period_end: "2026-01-31",
      amount: 95000,
      joining_fee: 5000,
      is_pro_rata: false,
    });
    expect(first && chargeAfter(s, first)).toBeNull();
  });

  it("a pause added after a period was charged: the next charge starts at the moved boundary, never earlier", () => {
    const before = schedule({});
    const charged = chargeAfter(before, { index: 0, period_end: "2025-02-28" }); // [Feb 28, Mar 31)
    const after = { ...before, pauses: [{ start: "2025-03-10", end: "2025-03-20" }] };
    expect(charged && chargeAfter(after, charged)).toMatchObject({ index: 2, period_start: "2025-04-10" });
  });

  it("rejects a billing date more than a period after the start date, and PIF without an end", () => {
    expect(() =>
      chargeAfter(schedule({ start_date: "2025-01-01", billing_date: "2025-02-01" }), null),
    ).toThrow(RangeError);
    expect(() => chargeAfter(schedule({ frequency: "one_off" }), null)).toThrow(RangeError);
  });

  it("chargeCovering finds the period containing a date, extended by a pause; none before the start", () => {
    const s = schedule({ pauses: [{ start: "2025-03-10", end: "2025-03-20" }] });
    expect(chargeCovering(s, "2025-04-05")).toMatchObject({
      index: 1,
      period_start: "2025-02-28",
      period_end: "2025-04-10",
    });
    expect(chargeCovering(s, "2025-04-10")).toMatchObject({ index: 2, period_start: "2025-04-10" });
    expect(chargeCovering(s, "2025-01-30")).toBeNull();
    const deferred = schedule({ pauses: [{ start: "2025-01-31", end: "2025-02-05" }] });
    expect(chargeCovering(deferred, "2025-02-01")).toBeNull();
    expect(chargeCovering(deferred, "2025-02-05")).toMatchObject({ index: 0, period_end: "2025-03-05" });
    const cancelled = schedule({ cancellation_effective: "2025-02-28" });
    expect(chargeCovering(cancelled, "2025-02-27")).toMatchObject({ index: 0 });
    expect(chargeCovering(cancelled, "2025-03-01")).toBeNull();
  });

  it("merges overlapping and touching pauses and cuts them at the start date", () => {
    expect(
      normalisePauses(
        [
          { start: "2025-03-05", end: "2025-03-15" },
          { start: "2025-03-01", end: "2025-03-10" },
          { start: "2025-03-15", end: "2025-03-16" },
          { start: "2024-12-01", end: "2025-01-03" },
          { start: "2025-05-01", end: "2025-05-01" },
        ],
        "2025-01-01",
      ),
    ).toEqual([
      { start: "2025-01-01", end: "2025-01-03", days: 2 },
      { start: "2025-03-01", end: "2025-03-16", days: 15 },
    ]);
  });
});

// ---- Properties --------------------------------------------------------------------------------------

const HORIZON_YEARS = 3;

const pauseArb = fc.record({
  offset: fc.integer({ min: -20, max: 700 }),
  days: fc.integer({ min: 1, max: 90 }),
});

/** A valid recurring schedule: billing date within the allowed pro-rata window, random pauses etc. */
const scheduleArb: fc.Arbitrary<BillingSchedule> = fc
  .record({
    frequency: recurringFrequency,
    start: date.filter((d) => lt(d, "2095-01-01")),
    billingPick: fc.integer({ min: 0, max: 400 }),
    amount: cents,
    joining: fc.option(cents),
    pauses: fc.array(pauseArb, { maxLength: 4 }),
    change: fc.option(fc.record({ offset: fc.integer({ min: -30, max: 800 }), amount: cents })),
    cancel: fc.option(fc.integer({ min: 0, max: 900 })),
  })
  .map((r) => {
    const latest = latestProRataBillingDate(r.start, r.frequency);
    const billing = addDays(r.start, r.billingPick % (daysBetween(r.start, latest) + 1));
    return {
      frequency: r.frequency,
      amount: r.amount,
      joining_fee: r.joining,
      start_date: r.start,
      billing_date: billing,
      pauses: r.pauses.map((p) => ({
        start: addDays(r.start, p.offset),
        end: addDays(r.start, p.offset + p.days),
      })),
      price_change: r.change
        ? { effective: addDays(r.start, r.change.offset), amount: r.change.amount }
        : null,
      cancellation_effective: r.cancel === null ? null : addDays(r.start, r.cancel),
      term_ends_at: null,
      pif_ends_at: null,
    };
  });

const horizon = (s: BillingSchedule) => addMonthsClamped(s.start_date, 12 * HORIZON_YEARS);
const all = (s: BillingSchedule) => chargesBetween(s, s.start_date, horizon(s));
const inPause = (s: BillingSchedule, d: CivilDate) => s.pauses.some((p) => ge(d, p.start) && lt(d, p.end));
const pausedDaysIn = (s: BillingSchedule, from: CivilDate, to: CivilDate) => {
  let n = 0;
  for (let d = from; lt(d, to); d = addDays(d, 1)) if (inPause(s, d)) n++;
  return n;
};

/** Shortest and longest n-month periods in days. */
const monthPeriodDays: Record<number, [number, number]> = {
  1: [28, 31],
  2: [59, 62],
  3: [89, 92],
  6: [181, 184],
  12: [365, 366],
};

describe("schedule: properties", () => {
  it("periods chain with no gap or overlap, indexes count up from 0, each due on its first day", () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        const cs = all(s);
        cs.forEach((c, i) => {
          expect(c.index).toBe(i);
          expect(c.due).toBe(c.period_start);
          expect(lt(c.period_start, c.period_end)).toBe(true);
          if (i > 0) expect(c.period_start).toBe(cs[i - 1].period_end);
          expect(c.joining_fee).toBe(i === 0 ? (s.joining_fee ?? 0) : 0);
          expect(c.is_pro_rata).toBe(i === 0 && s.start_date !== s.billing_date);
        });
      }),
    );
  });

  it("chargeAfter walks exactly the charges chargesBetween lists (none twice, none skipped)", () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        const cs = all(s);
        let prev: ScheduledCharge | null = null;
        for (const c of cs) {
          const next: ScheduledCharge | null = chargeAfter(s, prev);
          expect(next).toEqual(c);
          prev = next;
        }
      }),
    );
  });

  it("chargeCovering answers, for every day, the charge whose period contains it", () => {
    fc.assert(
      fc.property(scheduleArb, fc.nat(40), (s, k) => {
        const cs = all(s);
        const c = cs[Math.min(k, cs.length - 1)];
        if (!c) return;
        expect(chargeCovering(s, c.period_start)).toEqual(c);
        expect(chargeCovering(s, addDays(c.period_end, -1))).toEqual(c);
        if (c.index === 0) expect(chargeCovering(s, addDays(c.period_start, -1))).toBeNull();
      }),
    );
  });

  it("no charge falls due inside a pause, and none on or after cancellation takes effect", () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        for (const c of all(s)) {
          expect(inPause(s, c.due)).toBe(false);
          if (s.cancellation_effective) expect(lt(c.period_start, s.cancellation_effective)).toBe(true);
        }
      }),
    );
  });

  it("a pause only adds days: a full period's unpaused days are those of a period without pauses", () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        const { unit, count } = periodLength[s.frequency as RecurringFrequency];
        for (const c of all(s).filter((c) => !c.is_pro_rata)) {
          const unpaused =
            daysBetween(c.period_start, c.period_end) - pausedDaysIn(s, c.period_start, c.period_end);
          if (unit === "days") expect(unpaused).toBe(count);
          else {
            const [min, max] = monthPeriodDays[count];
            expect(unpaused).toBeGreaterThanOrEqual(min);
            expect(unpaused).toBeLessThanOrEqual(max);
          }
        }
      }),
    );
  });

  it("the stub's unpaused days are exactly the pro-rata days", () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        const first = chargeAfter(s, null);
        if (!first?.is_pro_rata) return;
        const unpaused =
          daysBetween(first.period_start, first.period_end) -
          pausedDaysIn(s, first.period_start, first.period_end);
        expect(unpaused).toBe(daysBetween(s.start_date, s.billing_date));
      }),
    );
  });

  it("a price change applies exactly to periods starting on or after its effective date", () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        for (const c of all(s).filter((c) => !c.is_pro_rata)) {
          const expected =
            s.price_change && ge(c.period_start, s.price_change.effective) ? s.price_change.amount : s.amount;
          expect(c.amount - c.joining_fee).toBe(expected);
        }
      }),
    );
  });

  it("over a pause-free year from the billing date: periods in a year × amount (+ joining fee)", () => {
    fc.assert(
      fc.property(date, recurringFrequency, cents, cents, (start, f, amount, joining) => {
        const s = schedule({
          frequency: f,
          start_date: start,
          billing_date: start,
          amount,
          joining_fee: joining,
        });
        const cs = chargesBetween(s, start, addMonthsClamped(start, 12));
        const { unit, count } = periodLength[f];
        const expectedCount =
          unit === "months" ? 12 / count : Math.ceil(daysBetween(start, addMonthsClamped(start, 12)) / count);
        expect(cs.length).toBe(expectedCount);
        expect(cs.reduce((sum, c) => sum + c.amount, 0)).toBe(expectedCount * amount + joining);
        for (const [i, c] of cs.entries()) expect(c.period_start).toBe(periodStart(start, i, f));
      }),
    );
  });

  it("is deterministic and whole-day across DST and month ends (no pause: the period.ts dates)", () => {
    fc.assert(
      fc.property(fc.oneof(dstSeasonDate, monthEndDate), recurringFrequency, (start, f) => {
        const s = schedule({ frequency: f, start_date: start, billing_date: start });
        const a = chargesBetween(s, start, addMonthsClamped(start, 13));
        expect(chargesBetween(s, start, addMonthsClamped(start, 13))).toEqual(a);
        a.forEach((c, i) => {
          expect(c.period_start).toBe(periodStart(start, i, f));
          expect(c.period_end).toBe(periodStart(start, i + 1, f));
        });
      }),
    );
  });

  it("29 February: a yearly anchor falls on 28 Feb in common years and returns to the 29th", () => {
    const s = schedule({ frequency: "yearly", start_date: "2024-02-29", billing_date: "2024-02-29" });
    expect(chargesBetween(s, "2024-01-01", "2029-01-01").map((c) => c.due)).toEqual([
      "2024-02-29",
      "2025-02-28",
      "2026-02-28",
      "2027-02-28",
      "2028-02-29",
    ]);
  });

  it("a pause added later never makes the next charge start before the charged period's stored end", () => {
    fc.assert(
      fc.property(scheduleArb, pauseArb, fc.nat(20), (s, extra, k) => {
        const cs = all({ ...s, pauses: [] });
        const prev = cs[Math.min(k, cs.length - 1)];
        if (!prev) return;
        const withPause = {
          ...s,
          pauses: [
            {
              start: addDays(prev.period_start, extra.offset % 60),
              end: addDays(prev.period_start, (extra.offset % 60) + extra.days),
            },
          ],
        };
        const next = chargeAfter(withPause, prev);
        if (next) {
          expect(ge(next.period_start, prev.period_end)).toBe(true);
          expect(next.index).toBeGreaterThan(prev.index);
        }
      }),
    );
  });
});
