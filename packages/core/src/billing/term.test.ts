import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyFrequency, cents, date } from "./arbitraries.test-support";
import { addDays, addMonthsClamped, compareCivilDates, daysBetween } from "./calendar";
import { isRecurringFrequency } from "./frequency";
import { periodStart } from "./period";
import {
  formatTerm,
  isTermMembership,
  paymentsInTerm,
  termAmountSchema,
  termEnd,
  termUnitSchema,
  termUnits,
  totalValue,
} from "./term";

const termAmount = fc.integer({ min: 1, max: 60 });
const termUnit = fc.constantFrom(...termUnits);

describe("termEnd", () => {
  it("is after the start and matches the unit's arithmetic", () => {
    fc.assert(
      fc.property(date, termAmount, termUnit, (start, n, unit) => {
        const end = termEnd(start, n, unit);
        expect(compareCivilDates(end, start)).toBe(1);
        if (unit === "weeks") expect(daysBetween(start, end)).toBe(7 * n);
        if (unit === "months") expect(end).toBe(addMonthsClamped(start, n));
        if (unit === "years") expect(end).toBe(addMonthsClamped(start, 12 * n));
      }),
      { numRuns: 1000 },
    );
  });

  it("rejects non-positive or fractional amounts and unknown units", () => {
    expect(() => termEnd("2025-01-01", 0, "months")).toThrow(RangeError);
    expect(() => termEnd("2025-01-01", 1.5, "months")).toThrow(RangeError);
    // @ts-expect-error days are not a term unit
    expect(() => termEnd("2025-01-01", 1, "days")).toThrow(RangeError);
    expect(termUnitSchema.safeParse("days").success).toBe(false);
    expect(termAmountSchema.safeParse(0).success).toBe(false);
  });
});

describe("paymentsInTerm and totalValue", () => {
  it("counts the period starts in [start, end) (checked by walking the schedule)", () => {
    fc.assert(
      fc.property(date, termAmount, termUnit, anyFrequency, cents, (start, n, unit, frequency, amount) => {
        const end = termEnd(start, n, unit);
        let expected = 1;
        if (isRecurringFrequency(frequency)) {
          expected = 0;
          while (compareCivilDates(periodStart(start, expected, frequency), end) < 0) expected++;
        }
        expect(paymentsInTerm(start, end, frequency)).toBe(expected);
        expect(totalValue(amount, frequency, n, unit, start)).toBe(amount * expected);
        expect(expected).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it("is 0 for an empty or reversed span of a recurring frequency", () => {
    expect(paymentsInTerm("2025-01-01", "2025-01-01", "weekly")).toBe(0);
    expect(paymentsInTerm("2025-01-02", "2025-01-01", "monthly")).toBe(0);
    expect(paymentsInTerm("2025-01-01", addDays("2025-01-01", 1), "yearly")).toBe(1);
  });
});

describe("formatTerm and isTermMembership", () => {
  it("writes amount, unit initial and Term", () => {
    fc.assert(
      fc.property(termAmount, termUnit, (n, unit) => {
        expect(formatTerm(n, unit)).toMatch(new RegExp(`^${n}[WMY] Term$`));
      }),
    );
    expect(formatTerm(12, "months")).toBe("12M Term");
    expect(isTermMembership({ billing_frequency: "monthly", term_amount: 12, term_unit: "months" })).toBe(
      true,
    );
    expect(isTermMembership({ billing_frequency: "monthly", term_amount: 12, term_unit: null })).toBe(false);
    expect(isTermMembership({ billing_frequency: "monthly" })).toBe(false);
  });
});
