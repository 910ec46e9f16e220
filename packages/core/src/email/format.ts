/** How emails show dates and names (en-NZ, Pacific/Auckland civil dates; names title-cased). */
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { titleCase } from "../text";

/** A civil date (or an instant, as its Auckland date) the en-NZ way: "Tuesday, 1 December 2026". */
export function emailDate(date: CivilDate | string | Date): string {
  const civil =
    date instanceof Date ? aucklandDate(date) : date.length > 10 ? aucklandDate(new Date(date)) : date;
  const [y, m, d] = civil.slice(0, 10).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-NZ", {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  });
}

/** A member's first name, title-cased ("mary-jane o'neil" → "Mary-Jane"). */
export function firstName(name: string): string {
  return titleCase(name.trim().split(/\s+/)[0] || name);
}

export { titleCase };
