/**
 * The dates of the exports' cells (members, payments, visits; docs/exports.md "The files"): en-NZ,
 * in Pacific/Auckland.
 */
import { AUCKLAND_TIME_ZONE, type CivilDate } from "../billing/calendar";

const dateTime = new Intl.DateTimeFormat("en-NZ", {
  timeZone: AUCKLAND_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
});

/** "2026-11-23" → "23/11/2026". */
export function civilDateNz(date: CivilDate): string {
  const [y, m, d] = date.split("-");
  return `${d}/${m}/${y}`;
}

/** An instant as its Auckland date and time ("23/11/2026, 2:05 pm"); "" for none. */
export function instantNz(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : "";
}
