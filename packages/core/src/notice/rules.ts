/** The pure rules of the member notices (docs/communications.md). */
import { addDays } from "../billing/calendar";

/** The last day a card works: the end of its expiry month. */
export function cardLastDay(expMonth: number, expYear: number): string {
  const firstOfNext =
    expMonth === 12 ? `${expYear + 1}-01-01` : `${expYear}-${String(expMonth + 1).padStart(2, "0")}-01`;
  return addDays(firstOfNext, -1);
}

/** Why a reminder must be sent whatever the member's preferences, or null. */
export function mandatoryReason(input: {
  due_on: string;
  total: number;
  last: { due_on: string; total: number } | null;
  pauses: { end_date: string }[];
}): "changed" | "after_pause" | null {
  if (!input.last || input.last.total !== input.total) return "changed";
  const lastDue = input.last.due_on;
  if (input.pauses.some((p) => p.end_date > lastDue && p.end_date <= input.due_on)) return "after_pause";
  return null;
}
