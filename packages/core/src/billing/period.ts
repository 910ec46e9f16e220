/**
 * Billing periods. A schedule is an anchor date (the start of period 0, normally the first full
 * billing date) and a recurring frequency. Period i starts at anchor + i periods, computed straight
 * from the anchor (months clamped), and ends (exclusive) where period i + 1 starts, so consecutive
 * periods never overlap or leave a gap. Indexes may be negative (periods before the anchor).
 */
import {
  addDays,
  addMonthsClamped,
  type CivilDate,
  compareCivilDates,
  daysBetween,
  parseCivilDate,
} from "./calendar";
import { type BillingFrequency, periodLength, type RecurringFrequency } from "./frequency";

export interface Period {
  index: number;
  /** First day, inclusive: the payment for the period is due on it. */
  start: CivilDate;
  /** Exclusive end: the next period's start. */
  end: CivilDate;
  /** Last day, inclusive (end - 1 day). */
  lastDay: CivilDate;
  days: number;
}

function lengthOf(frequency: BillingFrequency) {
  const length = (periodLength as Record<string, (typeof periodLength)[RecurringFrequency] | undefined>)[
    frequency
  ];
  if (!length) throw new RangeError(`${frequency} has no repeating period`);
  return length;
}

function assertIndex(index: number): void {
  if (!Number.isSafeInteger(index)) throw new RangeError(`index must be an integer, got ${index}`);
}

/** Start (inclusive) of period `index`. */
export function periodStart(anchor: CivilDate, index: number, frequency: RecurringFrequency): CivilDate {
  assertIndex(index);
  const { unit, count } = lengthOf(frequency);
  return unit === "days" ? addDays(anchor, index * count) : addMonthsClamped(anchor, index * count);
}

/** Exclusive end of period `index` (= start of period index + 1). */
export function periodEnd(anchor: CivilDate, index: number, frequency: RecurringFrequency): CivilDate {
  assertIndex(index);
  return periodStart(anchor, index + 1, frequency);
}

/** Last day (inclusive) of period `index`. */
export function periodLastDay(anchor: CivilDate, index: number, frequency: RecurringFrequency): CivilDate {
  return addDays(periodEnd(anchor, index, frequency), -1);
}

/** Number of days in period `index` (1, 7, 14, or 28-31 per month spanned). */
export function daysInPeriod(anchor: CivilDate, index: number, frequency: RecurringFrequency): number {
  return daysBetween(periodStart(anchor, index, frequency), periodEnd(anchor, index, frequency));
}

/** Period `index` with its start, exclusive end, last day and length. */
export function period(anchor: CivilDate, index: number, frequency: RecurringFrequency): Period {
  const start = periodStart(anchor, index, frequency);
  const end = periodEnd(anchor, index, frequency);
  return { index, start, end, lastDay: addDays(end, -1), days: daysBetween(start, end) };
}

/** The period with start <= date < end (index negative when date is before the anchor). */
export function periodContaining(anchor: CivilDate, date: CivilDate, frequency: RecurringFrequency): Period {
  const { unit, count } = lengthOf(frequency);
  let index: number;
  if (unit === "days") {
    index = Math.floor(daysBetween(anchor, date) / count);
  } else {
    const a = parseCivilDate(anchor);
    const d = parseCivilDate(date);
    index = Math.floor(((d.year - a.year) * 12 + (d.month - a.month)) / count);
    // The month estimate can be one period out because of the day of month and clamping.
    while (compareCivilDates(periodStart(anchor, index, frequency), date) > 0) index--;
    while (compareCivilDates(periodStart(anchor, index + 1, frequency), date) <= 0) index++;
  }
  return period(anchor, index, frequency);
}

/**
 * The first billing date (period start) on or after `onOrAfter`. Billing begins at the anchor, so
 * any date on or before the anchor gives the anchor.
 */
export function nextBillingDate(
  anchor: CivilDate,
  onOrAfter: CivilDate,
  frequency: RecurringFrequency,
): CivilDate {
  if (compareCivilDates(onOrAfter, anchor) <= 0) {
    lengthOf(frequency);
    return anchor;
  }
  const p = periodContaining(anchor, onOrAfter, frequency);
  return p.start === onOrAfter ? p.start : p.end;
}
