/** The pure rules of the member notices (docs/communications.md). */
import { addDays } from "../billing/calendar";
import type { PaymentRecord } from "../payment/store";

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

type Comparable = Pick<
  PaymentRecord,
  "status" | "is_retry" | "due_on" | "amount" | "surcharge" | "charge_index" | "meta"
>;

/**
 * The payment a reminder compares its total with (docs/communications.md "Payment reminder"): the
 * member's latest scheduled period charge due before this one that took money (sent or in flight).
 * Not a desk payment (its sum is debt and credit, not a period: tour, "different from your last
 * payment of $40.00"), a break fee, a retry of the balance, a charge that failed, nor one credit paid
 * wholly ("…of $0.00"). Null when there is none: the reminder then gives no figure to compare.
 */
export function lastComparable<P extends Comparable>(
  payments: readonly P[],
  dueOn: string,
): { due_on: string; total: number } | null {
  const last = payments
    .filter(
      (p) =>
        (p.status === "sent" || p.status === "pending_request") &&
        !p.is_retry &&
        p.charge_index !== undefined &&
        p.charge_index !== null &&
        p.meta?.kind !== "manual" &&
        p.meta?.kind !== "break_fee" &&
        p.amount + p.surcharge > 0 &&
        p.due_on < dueOn,
    )
    .sort((a, b) => (a.due_on < b.due_on ? 1 : -1))[0];
  return last ? { due_on: last.due_on, total: last.amount + last.surcharge } : null;
}
