/**
 * The business calendar: civil (wall-calendar) dates in Pacific/Auckland, written "YYYY-MM-DD".
 *
 * A civil date has no time and no zone, so date arithmetic on it can never be shifted by daylight
 * saving. Internally a date is turned into a whole number of days since 1970-01-01 with Date.UTC (UTC
 * has no DST), and back. Instants (`Date`) are converted to and from Auckland dates only at the edges:
 * `aucklandDate` and `startOfAucklandDay`. Nothing here reads the clock or the machine's time zone.
 */
import { z } from "zod";

/** A calendar date "YYYY-MM-DD" (years 0001-9999), meaning that day in Pacific/Auckland. */
export type CivilDate = string;

export const AUCKLAND_TIME_ZONE = "Pacific/Auckland";

const DAY_MS = 86_400_000;
const CIVIL_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateParts {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month; `month` is 1-12. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function tryParse(value: unknown): DateParts | null {
  if (typeof value !== "string") return null;
  const m = CIVIL_DATE_RE.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** True for a real calendar date written "YYYY-MM-DD" (so "2025-02-29" is false). */
export function isCivilDate(value: unknown): value is CivilDate {
  return tryParse(value) !== null;
}

export const civilDateSchema = z
  .string()
  .refine(isCivilDate, { message: "Expected a calendar date written YYYY-MM-DD" });

/** Splits a civil date into numbers. Throws RangeError when it is not a real "YYYY-MM-DD" date. */
export function parseCivilDate(date: CivilDate): DateParts {
  const parts = tryParse(date);
  if (!parts) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  return parts;
}

/** Builds a civil date from numbers; throws RangeError when the parts do not name a real date. */
export function formatCivilDate({ year, month, day }: DateParts): CivilDate {
  const text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  parseCivilDate(text);
  return text;
}

function utcMs(year: number, month: number, day: number): number {
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

/** Whole days since 1970-01-01 (negative before). */
export function toEpochDay(date: CivilDate): number {
  const { year, month, day } = parseCivilDate(date);
  return utcMs(year, month, day) / DAY_MS;
}

/** The civil date `epochDay` days after 1970-01-01. */
export function fromEpochDay(epochDay: number): CivilDate {
  assertInteger(epochDay, "epochDay");
  const d = new Date(epochDay * DAY_MS);
  const year = d.getUTCFullYear();
  if (!(year >= 1 && year <= 9999))
    throw new RangeError(`Date out of range (years 0001-9999): day ${epochDay}`);
  return formatCivilDate({ year, month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

function assertInteger(n: number, name: string): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${name} must be an integer, got ${n}`);
}

/** `date` moved by `days` whole days (negative moves back). */
export function addDays(date: CivilDate, days: number): CivilDate {
  assertInteger(days, "days");
  return fromEpochDay(toEpochDay(date) + days);
}

/** Days from `a` to `b`: positive when `b` is later, 0 when equal. daysBetween(a, addDays(a, n)) === n. */
export function daysBetween(a: CivilDate, b: CivilDate): number {
  return toEpochDay(b) - toEpochDay(a);
}

/** -1, 0 or 1 as `a` is before, equal to or after `b`. */
export function compareCivilDates(a: CivilDate, b: CivilDate): -1 | 0 | 1 {
  const d = daysBetween(b, a);
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/**
 * `anchor` moved by `months` calendar months, keeping the anchor's day of month and clamping it to the
 * end of shorter months: 2024-01-31 + 1 = 2024-02-29, + 2 = 2024-03-31, + 3 = 2024-04-30.
 * Always compute from the original anchor (never feed a clamped result back in), so that a clamped
 * date returns to the anchor's day as soon as the month is long enough.
 */
export function addMonthsClamped(anchor: CivilDate, months: number): CivilDate {
  assertInteger(months, "months");
  const { year, month, day } = parseCivilDate(anchor);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  if (y < 1 || y > 9999)
    throw new RangeError(`Date out of range (years 0001-9999): ${anchor} + ${months} months`);
  return formatCivilDate({ year: y, month: m, day: Math.min(day, daysInMonth(y, m)) });
}

// ---- Edges: instants <-> Auckland civil dates ----------------------------------------------------

const aucklandFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: AUCKLAND_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

interface WallClock extends DateParts {
  hour: number;
  minute: number;
  second: number;
}

function aucklandWallClock(ms: number): WallClock {
  const parts: Record<string, number> = {};
  for (const p of aucklandFormat.formatToParts(new Date(ms))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour === 24 ? 0 : parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** Auckland's offset from UTC at an instant, in ms (+12 h in NZST, +13 h in NZDT). */
export function aucklandOffsetMs(instant: Date): number {
  const ms = Math.floor(instant.getTime() / 1000) * 1000;
  const w = aucklandWallClock(ms);
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime() - ms;
}

function assertValidInstant(instant: Date): void {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) {
    throw new RangeError("Expected a valid Date");
  }
}

/** The Pacific/Auckland calendar date at an instant ("today" in Auckland when given now). */
export function aucklandDate(instant: Date): CivilDate {
  assertValidInstant(instant);
  const w = aucklandWallClock(instant.getTime());
  return formatCivilDate({ year: w.year, month: w.month, day: w.day });
}

/**
 * The last day of a span kept by its exclusive end (the first day after it: a period's end, a
 * cancellation's effect, a pay-in-full's end), given as a civil date or an instant. The one
 * convention of every page, email and receipt: people are shown this day, included ("last day
 * Friday, 4 December", "Covers until 27/02/2027"); docs/billing.md "Last days".
 */
export function lastDayOf(end: CivilDate | string): CivilDate {
  return addDays(isCivilDate(end) ? end : aucklandDate(new Date(end)), -1);
}

/**
 * The instant (UTC) at which `date` begins in Auckland: local midnight, 11:00Z the previous day in
 * NZDT or 12:00Z in NZST. Auckland's DST changes happen at 02:00/03:00, so midnight always exists
 * and is never doubled; should a zone ever skip or repeat midnight, this returns the first instant
 * whose Auckland date is `date`.
 */
export function startOfAucklandDay(date: CivilDate): Date {
  const local = toEpochDay(date) * DAY_MS; // the wall-clock midnight, read as if it were UTC
  const candidates = new Set([
    local - aucklandOffsetMs(new Date(local - DAY_MS)),
    local - aucklandOffsetMs(new Date(local + DAY_MS)),
  ]);
  const exact = [...candidates]
    .filter((t) => t + aucklandOffsetMs(new Date(t)) === local)
    .sort((a, b) => a - b);
  if (exact.length > 0) return new Date(exact[0]);
  // Midnight skipped: binary-search (to the ms) the first instant whose Auckland date is `date`.
  let lo = local - 2 * DAY_MS; // Auckland date before `date`
  let hi = local + DAY_MS; // Auckland date on or after `date`
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (aucklandDate(new Date(mid)) < date) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}
