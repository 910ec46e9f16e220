/**
 * The dates of the exports' cells (members, payments, visits; docs/exports.md "The files"): the
 * same en-NZ words the screens show, in Pacific/Auckland (core/text.ts, the one definition).
 */
import type { CivilDate } from "../billing/calendar";
import { nzDate, nzDateTime } from "../text";

/** "2026-11-23" → "23/11/2026", "2026-11-03" → "3/11/2026". */
export function civilDateNz(date: CivilDate): string {
  return nzDate(date);
}

/** An instant as its Auckland date and time ("23/11/2026 2:05 pm"); "" for none. */
export function instantNz(iso: string | null | undefined): string {
  return nzDateTime(iso);
}
