/**
 * The words staff read for the API's codes, written once: the staff site's badges, filters and
 * tables and the CSV exports (members, payments) show these, never the raw code
 * (`stripe_card`, `awaiting_payment`). Browser-safe (no imports but types).
 */
import type { MemberState } from "./member";
import type { PaymentKindValue, PaymentStatusValue } from "./payment";

/** Spec 001 §4: sent is successful; upcoming, pending_request and awaiting_payment are not paid yet. */
export const paymentStatusLabels: Record<PaymentStatusValue, string> = {
  sent: "Successful",
  upcoming: "Upcoming",
  pending_request: "Pending",
  awaiting_payment: "Awaiting payment",
  failed: "Failed",
  declined: "Declined",
  cancelled: "Cancelled",
};

/**
 * A failed or declined charge a retry or a desk payment has since paid in full
 * (`cleared_after_failure`): every screen says so instead of "Failed" (issue 34 tour item 8).
 */
export const clearedAfterFailureLabel = "Failed, since paid";

/** How a membership or a payment is paid. */
export const paymentKindLabels: Record<PaymentKindValue, string> = {
  stripe_card: "Card",
  bank_account: "Bank account",
  pif: "Paid in full",
};

/** A member's membership state (members list, member page, members export). */
export const memberStateLabels: Record<MemberState, string> = {
  active: "Active",
  upcoming: "Upcoming",
  paused: "Paused",
  grace: "Grace period",
  cancelling: "Cancelling",
  cancelled: "Cancelled",
  none: "No membership",
};

/** The label of a code, or the code itself when it is one this version does not know. */
export function labelOf<Code extends string>(labels: Record<Code, string>, code: string): string {
  return (labels as Record<string, string>)[code] ?? code;
}
