/** Starting early (docs/billing.md "Start early"): what starting today would charge, and starting. */
import type { Actor } from "../../auth/actor";
import { addDays, daysBetween } from "../../billing/calendar";
import { discountOf } from "../../billing/discount";
import { formatCents } from "../../billing/money";
import { chargeAfter } from "../../billing/schedule";
import { deriveSubscriptionState } from "../../billing/subscription-state";
import { termEnd } from "../../billing/term";
import { businessNow, businessToday } from "../../clock";
import { ConflictError } from "../../errors";
import { settingsOf } from "../../payment/context";
import { nzDate } from "../../text";
import { commitFacts, instantOf, reachableSubscription } from "../lifecycle";
import { discountTermsOf, scheduleOf } from "../schedule";
import { factsOf } from "../states";
import type { SubscriptionRecord } from "../store";

async function startEarlyPlan(sub: SubscriptionRecord) {
  const now = await businessNow();
  const today = await businessToday();
  const state = deriveSubscriptionState(factsOf(sub, now));
  // A membership with a trial does not start early (its trial would lengthen: docs/offers.md "Trials").
  const allowed = state.start_now_offered && sub.start_date > today && !sub.trial_ends_on;
  // Keep a billing day after the start (pro-rata up to it); a billing day equal to the start moves with it.
  const billing = sub.billing_date === sub.start_date ? today : sub.billing_date;
  const spanOk = sub.billing_frequency === "one_off" || daysBetween(today, billing) >= 0;
  const schedule = { ...scheduleOf(sub), start_date: today, billing_date: spanOk ? billing : today };
  let first = null;
  try {
    first = chargeAfter(schedule, null);
  } catch {
    first = chargeAfter({ ...schedule, billing_date: today }, null);
    schedule.billing_date = today;
  }
  // A promo code's discount, as the payment planned when starting now will carry it (docs/offers.md).
  const terms = discountTermsOf(sub);
  const discount = first && terms ? discountOf(terms, first, schedule.billing_date > today) : 0;
  if (first && discount) first = { ...first, amount: first.amount - discount };
  return { allowed, today, billing_date: schedule.billing_date, first };
}

/** `GET /api/subscriptions/{id}/start-early-data`: what starting today would charge. */
export async function startEarlyData(actor: Actor, subscriptionId: string) {
  const sub = await reachableSubscription(actor, subscriptionId, "read");
  const plan = await startEarlyPlan(sub);
  return {
    allowed: plan.allowed,
    start_date: plan.today,
    billing_date: plan.billing_date,
    current_start_date: sub.start_date,
    first_payment: plan.first
      ? {
          due_on: plan.first.due,
          period_start: plan.first.period_start,
          period_end: plan.first.period_end,
          amount: plan.first.amount,
          joining_fee: plan.first.joining_fee,
          is_pro_rata: plan.first.is_pro_rata,
          formatted_amount: formatCents(plan.first.amount),
        }
      : null,
  };
}

/** `POST /api/subscriptions/{id}/start-now`: only for non-cancelled, upcoming, non-PIF memberships. */
export async function startNow(actor: Actor, subscriptionId: string) {
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const plan = await startEarlyPlan(sub);
  if (!plan.allowed)
    throw new ConflictError(
      "Only an upcoming membership that is not cancelled or paid in full can start early.",
      "start_now_not_allowed",
    );
  // A term runs from the start: starting early moves its end and the cooling-off with it.
  const settings = await settingsOf(sub.organisation_id);
  const term =
    sub.is_term_membership && sub.term_amount != null && sub.term_unit != null
      ? {
          term_ends_at: instantOf(termEnd(plan.today, sub.term_amount, sub.term_unit)),
          latest_term_membership: instantOf(plan.today),
          cooling_period_ends_at: instantOf(addDays(plan.today, settings.cooling_off_days)),
        }
      : {};
  return commitFacts(actor, sub, {
    set: { start_date: plan.today, billing_date: plan.billing_date, initial_state: "active", ...term },
    remove: ["upcoming_state"],
    event: {
      action: "start_now",
      detail: `Started early on ${nzDate(plan.today)} (was ${nzDate(sub.start_date)})`,
    },
  });
}
