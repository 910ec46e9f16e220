import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cents, date, recurringFrequency } from "./arbitraries.test-support";
import { addDays, compareCivilDates, daysBetween, fromEpochDay, toEpochDay } from "./calendar";
import { periodStart } from "./period";
import { calculateProRata, ProRataError, proRataAmount } from "./pro-rata";

/** A billing date, a frequency, and a start date inside the period ending at the billing date. */
const validCase = fc
  .record({
    billing: date,
    frequency: recurringFrequency,
    amount: cents,
    fee: cents,
    t: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ billing, frequency, amount, fee, t }) => {
    const earliest = toEpochDay(periodStart(billing, -1, frequency)) + 1; // start must be after period start
    const latest = toEpochDay(billing);
    const start = fromEpochDay(Math.min(latest, earliest + Math.floor(t * (latest - earliest + 1))));
    return { billing, frequency, amount, fee, start };
  });

describe("calculateProRata", () => {
  it("accepts any start in the period ending at the billing date; amounts are sane", () => {
    fc.assert(
      fc.property(validCase, ({ billing, frequency, amount, fee, start }) => {
        const r = calculateProRata({
          amount,
          billing_frequency: frequency,
          joining_fee: fee,
          start_date: start,
          billing_date: billing,
        });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const v = r.value;
        expect(v.is_pro_rata).toBe(start !== billing);
        expect(v.pro_rata_days).toBe(daysBetween(start, billing));
        expect(v.pro_rata_days).toBeLessThan(v.period_days);
        expect(v.pro_rata_amount).toBeGreaterThanOrEqual(0);
        expect(v.pro_rata_amount).toBeLessThanOrEqual(amount);
        expect(v.first_payment_total).toBeGreaterThanOrEqual(0);
        expect(v.first_payment_total).toBe((v.is_pro_rata ? v.pro_rata_amount : amount) + fee);
        expect(v.first_payment_date).toBe(start);
        expect(v.first_full_payment_date).toBe(billing);
        expect(v.recurring_amount).toBe(amount);
        if (v.is_pro_rata) {
          expect(v.period_start).toBe(periodStart(billing, -1, frequency));
          expect(v.period_days).toBe(daysBetween(v.period_start, billing));
          expect(compareCivilDates(v.period_start, start)).toBe(-1);
        } else {
          expect(v.period_start).toBe(billing);
          expect(v.period_days).toBe(daysBetween(billing, periodStart(billing, 1, frequency)));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("charges more for more days (monotonic in the start date)", () => {
    fc.assert(
      fc.property(validCase, ({ billing, frequency, amount, start }) => {
        if (start === billing) return;
        const later = addDays(start, 1);
        const a = calculateProRata({
          amount,
          billing_frequency: frequency,
          start_date: start,
          billing_date: billing,
        });
        const b = calculateProRata({
          amount,
          billing_frequency: frequency,
          start_date: later,
          billing_date: billing,
        });
        if (!a.ok || !b.ok) throw new Error("expected ok");
        expect(b.value.pro_rata_amount).toBeLessThanOrEqual(a.value.pro_rata_amount);
      }),
      { numRuns: 500 },
    );
  });

  it("rejects a start on or before the period ending at the billing date, and billing before start", () => {
    fc.assert(
      fc.property(date, recurringFrequency, fc.integer({ min: 0, max: 400 }), (billing, frequency, extra) => {
        const tooEarly = addDays(periodStart(billing, -1, frequency), -extra);
        const r = calculateProRata({
          amount: 5000,
          billing_frequency: frequency,
          start_date: tooEarly,
          billing_date: billing,
        });
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.error).toBeInstanceOf(ProRataError);
          expect(r.error.code).toBe("billing_date_too_far");
        }
        const before = calculateProRata({
          amount: 5000,
          billing_frequency: frequency,
          start_date: addDays(billing, extra + 1),
          billing_date: billing,
        });
        expect(before.ok || before.error.code).toBe("billing_date_before_start");
      }),
      { numRuns: 500 },
    );
  });

  it("reports invalid input and one_off as typed errors, never throws", () => {
    const base = {
      amount: 5000,
      billing_frequency: "monthly" as const,
      start_date: "2025-01-10",
      billing_date: "2025-01-20",
    };
    const bad = [
      { ...base, amount: -1 },
      { ...base, amount: 10.5 },
      { ...base, joining_fee: -5 },
      { ...base, start_date: "2025-02-30" },
      { ...base, billing_date: "20/01/2025" },
      { ...base, billing_frequency: "hourly" },
    ];
    for (const input of bad) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid input
      const r = calculateProRata(input as any);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("invalid_input");
    }
    const pif = calculateProRata({ ...base, billing_frequency: "one_off" });
    expect(pif.ok || pif.error.code).toBe("not_recurring");
    expect(calculateProRata(base).ok).toBe(true);
  });
});

describe("proRataAmount", () => {
  it("a whole period is exactly the amount, none is zero, and it stays within [0, amount]", () => {
    fc.assert(
      fc.property(
        cents,
        fc.integer({ min: 1, max: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (amount, periodDays, t) => {
          expect(proRataAmount(amount, periodDays, periodDays)).toBe(amount);
          expect(proRataAmount(amount, 0, periodDays)).toBe(0);
          const days = Math.floor(t * periodDays);
          const value = proRataAmount(amount, days, periodDays);
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(amount);
          // half-up of the exact ratio
          expect(Math.abs(value * periodDays - amount * days) * 2).toBeLessThanOrEqual(periodDays);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("the days of a real period add up to its whole amount", () => {
    fc.assert(
      fc.property(date, recurringFrequency, cents, (billing, frequency, amount) => {
        const start = periodStart(billing, -1, frequency);
        const days = daysBetween(start, billing);
        expect(proRataAmount(amount, days, days)).toBe(amount);
      }),
    );
  });

  it("rejects a zero-length period and negative inputs", () => {
    expect(() => proRataAmount(100, 0, 0)).toThrow(RangeError);
    expect(() => proRataAmount(100, -1, 7)).toThrow(RangeError);
    expect(() => proRataAmount(-100, 1, 7)).toThrow(RangeError);
  });
});
