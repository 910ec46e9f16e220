/**
 * The subscription's derived states (spec 001 §4) and door standing, computed by the billing
 * rules (billing/subscription-state.ts) from the record and the business clock's now.
 */
import { passStanding } from "../billing/pass";
import { deriveSubscriptionState, type SubscriptionFacts } from "../billing/subscription-state";
import type { SubscriptionRecord } from "./store";

/** The price in effect at an instant: the ledger's rule (schedule.ts), shown and charged alike. */
export { priceInEffect } from "./schedule";

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
    is_awaiting_transfer: s.awaiting_transfer,
    card_colour: s.card_colour,
    on_cooling_period: s.on_cooling_period,
    currently_within_term_membership:
      sub.is_term_membership && (termEnds === null || now.getTime() < termEnds),
    membership_type: s.membership_type_label,
    has_scheduled_price_change: s.has_scheduled_price_change,
    price_change_takes_effect_at: s.price_change_takes_effect_at?.toISOString() ?? null,
    start_now_offered: s.start_now_offered,
    actions: s.actions,
    door_access: passStanding(sub, now, s.door),
  };
}
