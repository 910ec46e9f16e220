import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { date, recurringFrequency } from "./arbitraries.test-support";
import { addDays, compareCivilDates, daysBetween } from "./calendar";
import type { periodLength } from "./frequency";
import {
  daysInPeriod,
  nextBillingDate,
  period,
  periodContaining,
  periodEnd,
  periodLastDay,
  periodStart,
} from "./period";

const index = fc.integer({ min: -60, max: 400 });

/** Period lengths in days: whole days, or n calendar months (28-31 per month, clamping included). */
const dayRange: Record<keyof typeof periodLength, [number, number]> = {
  daily: [1, 1],
  weekly: [7, 7],
  fortnightly: [14, 14],
  monthly: [28, 31],
  bi_monthly: [59, 62],
  quarterly: [89, 92],
  twice_yearly: [181, 184],
  yearly: [365, 366],
};

describe("periods", () => {
  it("consecutive periods never overlap or leave a gap, and are ordered", () => {
    fc.assert(
      fc.property(date, recurringFrequency, index, (anchor, f, i) => {
        const a = period(anchor, i, f);
        const b = period(anchor, i + 1, f);
        expect(a.end).toBe(b.start);
        expect(a.lastDay).toBe(addDays(b.start, -1));
        expect(compareCivilDates(a.start, a.end)).toBe(-1);
        expect(a.days).toBe(daysBetween(a.start, a.end));
        expect(daysInPeriod(anchor, i, f)).toBe(a.days);
        expect(periodEnd(anchor, i, f)).toBe(a.end);
        expect(periodLastDay(anchor, i, f)).toBe(a.lastDay);
        const [min, max] = dayRange[f];
        expect(a.days).toBeGreaterThanOrEqual(min);
        expect(a.days).toBeLessThanOrEqual(max);
      }),
      { numRuns: 1000 },
    );
  });

  it("period 0 starts at the anchor and a run of periods covers every day exactly once", () => {
    fc.assert(
      fc.property(date, recurringFrequency, fc.integer({ min: 1, max: 30 }), (anchor, f, n) => {
        expect(periodStart(anchor, 0, f)).toBe(anchor);
        let total = 0;
        for (let i = 0; i < n; i++) total += daysInPeriod(anchor, i, f);
        expect(total).toBe(daysBetween(anchor, periodStart(anchor, n, f)));
      }),
      { numRuns: 200 },
    );
  });

  it("periodContaining(d) contains d and agrees with periodStart", () => {
    fc.assert(
      fc.property(date, date, recurringFrequency, (anchor, d, f) => {
        const p = periodContaining(anchor, d, f);
        expect(compareCivilDates(p.start, d)).toBeLessThanOrEqual(0);
        expect(compareCivilDates(d, p.end)).toBe(-1);
        expect(p).toEqual(period(anchor, p.index, f));
      }),
      { numRuns: 1000 },
    );
  });

  it("each period start is contained by its own period", () => {
    fc.assert(
      fc.property(date, recurringFrequency, index, (anchor, f, i) => {
        expect(periodContaining(anchor, periodStart(anchor, i, f), f).index).toBe(i);
        expect(periodContaining(anchor, periodLastDay(anchor, i, f), f).index).toBe(i);
      }),
      { numRuns: 500 },
    );
  });

  it("nextBillingDate is the first period start on or after the date, never before the anchor", () => {
    fc.assert(
      fc.property(date, date, recurringFrequency, (anchor, d, f) => {
        const next = nextBillingDate(anchor, d, f);
        expect(compareCivilDates(next, d)).toBeGreaterThanOrEqual(0);
        expect(compareCivilDates(next, anchor)).toBeGreaterThanOrEqual(0);
        const p = periodContaining(anchor, next, f);
        expect(p.start).toBe(next);
        if (compareCivilDates(d, anchor) <= 0) {
          expect(next).toBe(anchor);
        } else {
          // no period start in [d, next)
          expect(compareCivilDates(periodStart(anchor, p.index - 1, f), d)).toBe(-1);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("rejects one_off and non-integer indexes", () => {
    // @ts-expect-error one_off has no repeating period
    expect(() => periodStart("2025-01-01", 0, "one_off")).toThrow(RangeError);
    // @ts-expect-error one_off has no repeating period
    expect(() => periodContaining("2025-01-01", "2025-02-01", "one_off")).toThrow(RangeError);
    // @ts-expect-error one_off has no repeating period
    expect(() => nextBillingDate("2025-01-01", "2024-02-01", "one_off")).toThrow(RangeError);
    expect(() => periodStart("2025-01-01", 0.5, "weekly")).toThrow(RangeError);
  });
});
