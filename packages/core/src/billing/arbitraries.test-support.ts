/** fast-check generators shared by the billing property tests. */
import fc from "fast-check";
import { type CivilDate, daysInMonth, formatCivilDate, fromEpochDay, toEpochDay } from "./calendar";
import { billingFrequencies, type RecurringFrequency, recurringFrequencies } from "./frequency";

export const FIRST_DAY = toEpochDay("1990-01-01");
export const LAST_DAY = toEpochDay("2100-12-31");

/** Any date 1990-2100. */
export const anyDate: fc.Arbitrary<CivilDate> = fc
  .integer({ min: FIRST_DAY, max: LAST_DAY })
  .map(fromEpochDay);

/** Dates in the months NZ DST has changed in (March/April and September/October, 1990-2100). */
export const dstSeasonDate: fc.Arbitrary<CivilDate> = fc
  .record({
    year: fc.integer({ min: 1990, max: 2100 }),
    month: fc.constantFrom(3, 4, 9, 10),
    day: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ year, month, day }) =>
    formatCivilDate({ year, month, day: Math.min(day, daysInMonth(year, month)) }),
  );

/** The last days of months, including 29 February in leap years. */
export const monthEndDate: fc.Arbitrary<CivilDate> = fc
  .record({
    year: fc.integer({ min: 1990, max: 2100 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 28, max: 31 }),
  })
  .map(({ year, month, day }) =>
    formatCivilDate({ year, month, day: Math.min(day, daysInMonth(year, month)) }),
  );

/** Dates biased toward the awkward ones: DST seasons, month ends and leap days. */
export const date: fc.Arbitrary<CivilDate> = fc.oneof(anyDate, dstSeasonDate, monthEndDate);

export const recurringFrequency: fc.Arbitrary<RecurringFrequency> = fc.constantFrom(...recurringFrequencies);
export const anyFrequency = fc.constantFrom(...billingFrequencies);

/** Amounts in cents up to $100,000. */
export const cents = fc.integer({ min: 0, max: 10_000_000 });
