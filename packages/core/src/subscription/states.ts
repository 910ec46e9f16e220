/**
 * The subscription's derived states (spec 001 §4), computed by the billing rules
 * (billing/subscription-state.ts) from the record and the business clock's now.
 */
import type { SubscriptionRecord } from "./store";

export function derivedStatesOf(sub: SubscriptionRecord, now: Date) {
  // Interim until the rules branch lands: the spec's wording, filled from billing/subscription-state.
  const iso = now.toISOString();
  const cancelled = Boolean(sub.cancelled_at);
  const cancelledInEffect =
    cancelled && (!sub.cancellation_effective_at || sub.cancellation_effective_at <= iso);
  return {
    is_cancelled: cancelled,
    cancellation_in_effect: cancelledInEffect,
    in_grace_period: Boolean(sub.grace_period_ends_at),
  };
}
