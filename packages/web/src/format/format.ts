/**
 * Display formatting: en-NZ conventions in Pacific/Auckland, whatever the device's own zone.
 * Strings are composed from `formatToParts` so the output is identical across browsers
 * (ICU versions differ in spaces and in the case of "am"/"pm").
 */

import { lastDayOf } from "@gym/core/billing/calendar";
import { nzDate, nzDateTime } from "@gym/core/text";

export const TIME_ZONE = "Pacific/Auckland";
export const LOCALE = "en-NZ";

export type DateLike = string | number | Date | null | undefined;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_TIME = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

const dateParts = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "numeric",
  minute: "2-digit",
  hourCycle: "h23",
});

const longDate = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: "numeric",
  month: "long",
  year: "numeric",
});

const shortDay = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  weekday: "short",
  day: "numeric",
  month: "short",
});

const money = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "NZD" });

function toDate(value: DateLike): Date | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

interface Parts {
  year: string;
  month: string;
  day: string;
  hour: number;
  minute: string;
}

/** The calendar date and clock time in Auckland at the given instant. */
export function aucklandParts(value: DateLike): Parts | undefined {
  const date = toDate(value);
  if (!date) return undefined;
  const parts: Record<string, string> = {};
  for (const part of dateParts.formatToParts(date)) parts[part.type] = part.value;
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: Number(parts.hour) % 24,
    minute: parts.minute,
  };
}

function clock(hour24: number, minute: string): string {
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour12}:${minute} ${hour24 < 12 ? "am" : "pm"}`;
}

/** The Auckland calendar date ("YYYY-MM-DD") of a value; a date-only value is its own date. */
function civilDate(value: DateLike): string | undefined {
  if (typeof value === "string" && DATE_ONLY.test(value)) return value;
  const parts = aucklandParts(value);
  return parts ? `${parts.year}-${parts.month}-${parts.day}` : undefined;
}

/**
 * "16/01/2026", "9/03/1990" (en-NZ d/MM/yyyy, core's `nzDate`). A date-only value ("2026-01-16",
 * e.g. a birthday) is shown as that date.
 */
export function formatDate(value: DateLike): string {
  const date = civilDate(value);
  return date ? nzDate(date) : "";
}

/**
 * The last day of a span kept by its exclusive end (`current_period_end`, `cancellation_effective_at`,
 * `pif_ends_at`): "4/12/2026" for an end of 5 December. Core's `lastDayOf`, the one convention of
 * pages, emails and receipts (docs/billing.md "Last days").
 */
export function formatLastDay(end: DateLike): string {
  const date = civilDate(end);
  return date ? nzDate(lastDayOf(date)) : "";
}

/** "4 December 2026": the long form of `formatLastDay`. */
export function formatLongLastDay(end: DateLike): string {
  const date = civilDate(end);
  return date ? formatLongDate(lastDayOf(date)) : "";
}

/** "28/09", "5/10": a day on a chart's axis, day first (d/MM). */
export function formatDayMonth(value: DateLike): string {
  const date = civilDate(value);
  return date ? nzDate(date).replace(/\/\d{4}$/, "") : "";
}

/** A subscription's pause as the answer carries it (`pause_end_at` is the first day back). */
export interface PauseDates {
  pause_start_at: string | null;
  pause_last_day?: string | null;
  pause_end_at: string | null;
}

/**
 * Every pause the same way on both sites: "10/12/2026 – 16/12/2026, back on 17/12/2026" (first and
 * last paused day, both included, then the first day back); "From 10/12/2026" for an open pause.
 */
export function formatPause(pause: PauseDates): string {
  const first = formatDate(pause.pause_start_at);
  if (!first) return "";
  const back = civilDate(pause.pause_end_at);
  if (!back) return `From ${first}`;
  const [y, m, d] = back.split("-").map(Number);
  const last = pause.pause_last_day ?? new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  return `${first} – ${formatDate(last)}, back on ${nzDate(back)}`;
}

/** "16 January 2026". */
export function formatLongDate(value: DateLike): string {
  if (typeof value === "string" && DATE_ONLY.test(value)) {
    return longDate.format(new Date(`${value}T12:00:00+12:00`));
  }
  const date = toDate(value);
  return date ? longDate.format(date) : "";
}

/** "Fri 16 Jan": a day close by (a payment this week or next). */
export function formatShortDay(value: DateLike): string {
  const date =
    typeof value === "string" && DATE_ONLY.test(value) ? new Date(`${value}T12:00:00+12:00`) : toDate(value);
  if (!date) return "";
  const parts: Record<string, string> = {};
  for (const part of shortDay.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.weekday} ${parts.day} ${parts.month}`;
}

/** "16/01/2026 9:00 am" (d/MM/yyyy h:mm a): core's `nzDateTime`, the one definition the API's messages use too. */
export function formatDateTime(value: DateLike): string {
  return nzDateTime(value);
}

/**
 * "9:00 am" (h:mm a). A wall-clock time ("06:30" or "18:00:00", e.g. opening hours) is shown
 * as is; an instant is converted to Auckland time.
 */
export function formatTime(value: DateLike): string {
  if (typeof value === "string") {
    const match = WALL_TIME.exec(value);
    if (match) {
      const hour = Number(match[1]);
      return hour < 24 ? clock(hour, match[2]) : "";
    }
  }
  const parts = aucklandParts(value);
  return parts ? clock(parts.hour, parts.minute) : "";
}

/** Integer cents NZD to "$1,234.50" ("-$5.00" for negatives). */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "";
  return money.format(cents / 100);
}

/** The one title-case rule for names (core/text.ts): the sites show names as the API does. */
export { titleCase } from "@gym/core/text";

/** "02/06/2025" (en-NZ) or "2025-06-02" to "2025-06-02"; null when it is not a calendar date. */
export function parseNzDate(text: string): string | null {
  const trimmed = text.trim();
  const nz = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(trimmed);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  const parts = nz ? [nz[3], nz[2], nz[1]] : iso ? [iso[1], iso[2], iso[3]] : null;
  if (!parts) return null;
  const [y, m, d] = parts;
  const value = `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  const check = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(check.getTime()) && check.toISOString().slice(0, 10) === value ? value : null;
}
