/**
 * The subscription's derived states (spec 001 §4) and door standing, computed by the billing
 * rules (billing/subscription-state.ts) from the record and the business clock's now.
 */
import { isCivilDate, startOfAucklandDay } from "../billing/calendar";
import { deriveSubscriptionState, type SubscriptionFacts } from "../billing/subscription-state";
import type { SubscriptionRecord } from "./store";

export function factsOf(sub: SubscriptionRecord, now: Date): SubscriptionFacts {
  return {
    now,
    billing_frequency: sub.billing_frequency,
    term_amount: sub.term_amount ?? null,
    term_unit: sub.term_unit ?? null,
    paused_at: sub.paused_at ?? null,
    pause_start_at: sub.pause_start_at ?? null,
    pause_end_at: sub.pause_end_at ?? null,
    cancelled_at: sub.cancelled_at ?? null,
    cancellation_effective_at: sub.cancellation_effective_at ?? null,
    undo_cancellation_until: sub.undo_cancellation_until ?? null,
    grace_period_ends_at: sub.grace_period_ends_at ?? null,
    upcoming_state: sub.upcoming_state ?? null,
    transition_to_price: sub.transition_to_price_id ?? null,
    transition_takes_effect_at: sub.transition_takes_effect_at ?? null,
    current_period_end: sub.current_period_end ?? null,
    is_term_membership: sub.is_term_membership,
    term_ends_at: sub.term_ends_at ?? null,
    cooling_period_ends_at: sub.cooling_period_ends_at ?? null,
    pif_ends_at: sub.pif_ends_at ?? null,
    balance_owing: sub.balance_owing ?? 0,
  };
}

/**
 * The price the membership is on at `now`: a scheduled price change, once in effect (its
 * `transition_takes_effect_at` reached), is the price shown everywhere (the member's and staff
 * pages, the members list and export), as it is the one charged (schedule.ts's price change).
 */
export function priceInEffect(sub: SubscriptionRecord, now: Date) {
  const effective = sub.transition_takes_effect_at ?? sub.transition_to_date;
  const at = !effective
    ? Number.NaN
    : isCivilDate(effective)
      ? startOfAucklandDay(effective).getTime()
      : Date.parse(effective);
  if (sub.transition_to_price_id && sub.transition_to_amount != null && at <= now.getTime())
    return {
      price_id: sub.transition_to_price_id,
      offering_id: sub.transition_to_offering_id ?? sub.offering_id,
      offering_name: sub.transition_to_offering_name ?? sub.offering_name,
      price_label: sub.transition_to_price_label ?? sub.price_label,
      amount: sub.transition_to_amount,
    };
  return {
    price_id: sub.price_id,
    offering_id: sub.offering_id,
    offering_name: sub.offering_name,
    price_label: sub.price_label,
    amount: sub.amount,
  };
}

/** The §4 derived states as the API returns them (dates ISO), plus door standing. */
export function derivedStatesOf(sub: SubscriptionRecord, now: Date) {
  const s = deriveSubscriptionState(factsOf(sub, now));
  const termEnds = sub.term_ends_at ? Date.parse(sub.term_ends_at) : null;
  return {
    is_paused: s.paused,
    pause_in_future: s.pause_in_future,
    is_cancelled: s.cancelled,
    cancellation_taken_effect: s.cancellation_taken_effect,
    undo_cancellation_possible: s.undo_cancellation_possible,
    in_grace_period: s.in_grace_period,
    grace_period_over: s.grace_period_over,
    is_upcoming: s.upcoming,
    is_active: s.active,
    card_colour: s.card_colour,
    on_cooling_period: s.on_cooling_period,
    currently_within_term_membership:
      sub.is_term_membership && (termEnds === null || now.getTime() < termEnds),
    membership_type: s.membership_type_label,
    has_scheduled_price_change: s.has_scheduled_price_change,
    price_change_takes_effect_at: s.price_change_takes_effect_at?.toISOString() ?? null,
    start_now_offered: s.start_now_offered,
    actions: s.actions,
    door_access: s.door,
  };
}
