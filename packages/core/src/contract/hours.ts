/**
 * Opening hours of a Limited Hours offering: rows of { day, open_at, close_at }. Days are numbered
 * 1 (Monday) to 7 (Sunday) (spec 000 §9); times are wall-clock "HH:mm" in 24-hour form, stored as
 * typed and shown as h:mm a ("6:00 am"). Pure functions, no clock.
 */

export const dayNames = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;
export const dayShortNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** 1 Monday ... 7 Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True for a 24-hour wall-clock time written "HH:mm" (00:00 to 23:59). */
export function isWallTime(value: unknown): value is string {
  return typeof value === "string" && TIME_RE.test(value);
}

/** Minutes after midnight of an "HH:mm" time. Throws RangeError for anything else. */
export function minutesOfDay(time: string): number {
  const m = TIME_RE.exec(time);
  if (!m) throw new RangeError(`Not a time (HH:mm): ${JSON.stringify(time)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** "06:00" → "6:00 am", "12:30" → "12:30 pm", "00:15" → "12:15 am" (h:mm a, spec §9). */
export function formatWallTime(time: string): string {
  const minutes = minutesOfDay(time);
  const hour24 = Math.floor(minutes / 60);
  const minute = String(minutes % 60).padStart(2, "0");
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour12}:${minute} ${hour24 < 12 ? "am" : "pm"}`;
}

export function dayName(day: number): string {
  const name = dayNames[day - 1];
  if (!name || !Number.isInteger(day)) throw new RangeError(`A day is 1 (Monday) to 7 (Sunday), got ${day}`);
  return name;
}

/** A row closes after it opens (same day; a row may not run past midnight). */
export function closesAfterOpening(open_at: string, close_at: string): boolean {
  return minutesOfDay(close_at) > minutesOfDay(open_at);
}

export interface HoursRow {
  day: number;
  open_at: string;
  close_at: string;
}

/** Rows in week order (Monday first), then by opening time. Does not modify the input. */
export function sortHours<T extends HoursRow>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => a.day - b.day || minutesOfDay(a.open_at) - minutesOfDay(b.open_at));
}

/** A row as shown: "Monday 6:00 am – 9:00 pm". */
export function formatHoursRow(row: HoursRow): string {
  return `${dayName(row.day)} ${formatWallTime(row.open_at)} – ${formatWallTime(row.close_at)}`;
}

/**
 * A one-line summary of a week's hours, consecutive days with the same hours grouped:
 * "Mon–Fri 6:00 am – 9:00 pm; Sat 8:00 am – 2:00 pm". A day with several rows lists each span.
 * Empty when there are no rows.
 */
export function summariseHours(rows: readonly HoursRow[]): string {
  const byDay = new Map<number, string>();
  for (const row of sortHours(rows)) {
    const span = `${formatWallTime(row.open_at)} – ${formatWallTime(row.close_at)}`;
    byDay.set(row.day, byDay.has(row.day) ? `${byDay.get(row.day)}, ${span}` : span);
  }
  const groups: { from: number; to: number; spans: string }[] = [];
  for (const [day, spans] of [...byDay].sort((a, b) => a[0] - b[0])) {
    const last = groups[groups.length - 1];
    if (last && last.to === day - 1 && last.spans === spans) last.to = day;
    else groups.push({ from: day, to: day, spans });
  }
  return groups
    .map(({ from, to, spans }) => {
      const days =
        from === to ? dayShortNames[from - 1] : `${dayShortNames[from - 1]}–${dayShortNames[to - 1]}`;
      return `${days} ${spans}`;
    })
    .join("; ");
}
