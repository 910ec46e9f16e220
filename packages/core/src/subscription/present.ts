/** The pure presenter of a subscription (spec 001 §3) with its derived states (§4, from billing rules). */
import { addDays, aucklandDate, lastDayOf, startOfAucklandDay } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { passDoor, passOf } from "../billing/pass";
import { chargeCovering } from "../billing/schedule";
import type { Subscription } from "../contract/payment";
import type { MoneyQuote } from "../contract/quote";
import { clearedFailureIds } from "../payment/debt";
import { presentAsQuoted } from "../payment/present";
import type { PaymentRecord } from "../payment/store";
import { pendingPriceChange, scheduleOf } from "./schedule";
import { derivedStatesOf, priceInEffect } from "./states";
import type { SubscriptionRecord } from "./store";

export interface SubscriptionPresentContext {
  /** The business clock's now. */
  now: Date;
  upcomingPayment?: PaymentRecord | null;
  firstPayment?: PaymentRecord | null;
  latestPayment?: PaymentRecord | null;
  payments?: PaymentRecord[];
  /** The next money event (payment/quote.ts `quoteNextEvent`), when the caller read it. */
  nextCharge?: MoneyQuote | null;
}

/**
 * The period the schedule says today falls in (start, and exclusive end, as instants like the
 * stored fields): derived, not the stored copy, which only the billing run's claim moves and so
 * stood a year old for members imported or billed before it was kept (issue 34, item 12).
 * The stored copy is answered only when the schedule cannot be read.
 */
function currentPeriodOf(sub: SubscriptionRecord, now: Date) {
  try {
    const charge = chargeCovering(scheduleOf(sub), aucklandDate(now));
    if (!charge) return { start: null, end: null };
    return {
      start: startOfAucklandDay(charge.period_start).toISOString(),
      end: startOfAucklandDay(charge.period_end).toISOString(),
    };
  } catch {
    return { start: sub.current_period_start ?? null, end: sub.current_period_end ?? null };
  }
}

/** Typed by the contract: a field the contract does not declare, or declares differently, fails tsc here. */
export function presentSubscription(
  sub: SubscriptionRecord,
  context: SubscriptionPresentContext,
): Subscription {
  const states = derivedStatesOf(sub, context.now);
  const price = priceInEffect(sub, context.now);
  const period = currentPeriodOf(sub, context.now);
  const pending = pendingPriceChange(sub, context.now);
  const quoted = presentAsQuoted(context.nextCharge, clearedFailureIds(context.payments ?? []));
  return {
    id: sub.subscription_id,
    user: { id: sub.user_id, name: sub.member_name, email: sub.member_email },
    gym: { id: sub.gym_id, name: sub.gym_name },
    price: {
      id: price.price_id,
      label: price.price_label,
      amount: price.amount,
      formatted_amount: formatCents(price.amount),
      billing_frequency: sub.billing_frequency,
      joining_fee: sub.joining_fee,
      offering: { id: price.offering_id, name: price.offering_name },
    },
    payment_method: sub.payment_method,
    payment_type_id: sub.payment_type_id ?? null,
    start_date: sub.start_date,
    billing_date: sub.billing_date,
    current_period_start: period.start,
    current_period_end: period.end,
    paused_at: sub.paused_at ?? null,
    pause_start_at: sub.pause_start_at ?? null,
    pause_end_at: sub.pause_end_at ?? null,
    pause_last_day: sub.pause_end_at ? addDays(aucklandDate(new Date(sub.pause_end_at)), -1) : null,
    pause_days_credit: sub.pause_days_credit,
    pause_days_remaining: sub.pause_days_remaining,
    pauses: sub.pauses ?? [],
    cancelled_at: sub.cancelled_at ?? null,
    cancellation_effective_at: sub.cancellation_effective_at ?? null,
    trial: sub.trial_ends_on
      ? {
          ends_on: sub.trial_ends_on,
          last_day: lastDayOf(sub.trial_ends_on),
          amount: sub.trial_amount ?? 0,
          formatted_amount: formatCents(sub.trial_amount ?? 0),
          in_trial: aucklandDate(context.now) < sub.trial_ends_on,
        }
      : null,
    pass: presentPass(sub, context.now),
    cancellation_reasons: sub.cancellation_reasons ?? [],
    cancellation_comments: sub.cancellation_comments ?? null,
    undo_cancellation_until: sub.undo_cancellation_until ?? null,
    cancelled_during_cooling_off_period: sub.cancelled_during_cooling_off_period,
    grace_period_ends_at: sub.grace_period_ends_at ?? null,
    initial_state: sub.initial_state ?? null,
    upcoming_state: sub.upcoming_state ?? null,
    transition_to_date: sub.transition_to_date ?? null,
    transition_to_price: sub.transition_to_price_id ?? null,
    transition_takes_effect_at: sub.transition_takes_effect_at ?? null,
    created_at: sub.created_at,
    force_price_amount: sub.force_price_amount ?? null,
    is_staging: sub.is_staging,
    cooling_period_ends_at: sub.cooling_period_ends_at ?? null,
    is_term_membership: sub.is_term_membership,
    on_term_membership_price: sub.on_term_membership_price,
    term_ends_at: sub.term_ends_at ?? null,
    latest_term_membership: sub.latest_term_membership ?? null,
    pif_ends_at: sub.pif_ends_at ?? null,
    private_price_link_id: sub.private_price_link_id ?? null,
    payments_sum: sub.payments_sum,
    formatted_payments_sum: formatCents(sub.payments_sum),
    balance_owing: sub.balance_owing,
    formatted_balance_owing: formatCents(sub.balance_owing),
    periods_owing: sub.periods_owing,
    credit_balance: sub.credit_balance ?? 0,
    formatted_credit_balance: formatCents(sub.credit_balance ?? 0),
    hard_declined: sub.hard_declined,
    next_retry_on: sub.next_retry_on ?? null,
    waiting_for_consent: sub.waiting_for_consent,
    version: sub.version,
    upcoming_payment: context.upcomingPayment ? quoted(context.upcomingPayment) : null,
    next_charge: context.nextCharge ?? null,
    first_payment: context.firstPayment ? quoted(context.firstPayment) : null,
    latest_payment: context.latestPayment ? quoted(context.latestPayment) : null,
    payments: context.payments ? context.payments.map(quoted) : undefined,
    ...states,
    pending_price_change: pending ? { ...pending, formatted_amount: formatCents(pending.amount) } : null,
  };
}

export type SubscriptionView = Subscription;

/** A visit pass's count and what it means at the door today (docs/offers.md "Visit passes"). */
function presentPass(sub: SubscriptionRecord, now: Date): Subscription["pass"] {
  const pass = passOf(sub);
  if (!pass) return null;
  const door = passDoor(pass, aucklandDate(now));
  return {
    visits: pass.visits,
    used: pass.used,
    left: Math.max(0, pass.visits - pass.used),
    last_visit_on: pass.last_visit_on,
    last_day: lastDayOf(pass.ends_on),
    door: door.standing,
    reason: door.reason,
  };
}
