/** A member's state as shown and filtered by (the list, one member, the export): their latest subscription's. */
import type { MemberListItem, MemberState } from "../contract/member";
import { derivedStatesOf, priceInEffect } from "../subscription/states";
import { isLive, type SubscriptionRecord } from "../subscription/store";

/** The one state a member is shown and filtered by: their latest subscription's §4 state. */
export function stateOf(sub: SubscriptionRecord | null, now: Date): MemberState {
  if (!sub) return "none";
  const s = derivedStatesOf(sub, now);
  // Cancelled but still running to its last day: not "Cancelled" yet (issue 34 tour item 7).
  if (s.is_cancelled) return s.cancellation_taken_effect ? "cancelled" : "cancelling";
  if (s.in_grace_period) return "grace";
  if (s.is_paused) return "paused";
  if (s.is_upcoming) return "upcoming";
  return "active";
}

/** Does the latest subscription still charge (live and not cancelled)? Such a member cannot be deleted. */
export function stillCharges(sub: SubscriptionRecord | null, now: Date): boolean {
  if (!sub) return false;
  if (!isLive(sub, now)) return false;
  return !sub.cancelled_at;
}

export function summaryOf(
  sub: SubscriptionRecord,
  now: Date,
): NonNullable<MemberListItem["latest_subscription"]> {
  const s = derivedStatesOf(sub, now);
  const price = priceInEffect(sub, now);
  return {
    id: sub.subscription_id,
    state: stateOf(sub, now),
    card_colour: s.card_colour,
    gym: { id: sub.gym_id, name: sub.gym_name ?? "" },
    offering: { id: price.offering_id, name: price.offering_name ?? "" },
    price: { id: price.price_id, label: price.price_label ?? null },
    payment_method: sub.payment_method,
    membership_type: s.membership_type,
  };
}
