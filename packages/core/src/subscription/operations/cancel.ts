/**
 * Cancelling (docs/billing.md "Cancellation, cooling-off, terms"): what cancelling would mean and
 * the cancellation itself, with its break fee; the member's own (self-service.ts) call the same
 * with their own finder. The rule is billing/lifecycle.ts (`cancellationTerms`); the facts are
 * committed with lifecycle.ts's `commitFacts`. Undoing it: undo-cancellation.ts.
 */

import type { Actor } from "../../auth/actor";
import { addDays, type CivilDate, daysBetween } from "../../billing/calendar";
import { cancellationTerms } from "../../billing/lifecycle";
import { formatCents } from "../../billing/money";
import { businessNow, businessToday } from "../../clock";
import { cancelInput } from "../../contract/lifecycle";
import { sendEmail } from "../../email/port";
import { ConflictError } from "../../errors";
import { log } from "../../log";
import { breakFeeFor } from "../../organisation/settings";
import { type BillingContext, batchContext, freshContext } from "../../payment/context";
import { newPayment } from "../../payment/new-payment";
import { currentMethod, quoteOf } from "../../payment/quote";
import type { PaymentRecord } from "../../payment/store";
import { nzDate } from "../../text";
import { memberRecipient } from "../../user/recipient";
import { parse } from "../../validation";
import {
  civilOf,
  commitFacts,
  instantOf,
  type SubscriptionFinder,
  staffChanges,
  staffReads,
} from "../lifecycle";
import { scheduleOf } from "../schedule";
import type { SubscriptionRecord } from "../store";
import { cancellationEmail } from "./cancellation-email";
import { plural } from "./common";

/**
 * Cancelling removes every booked pause that would start on or after the day the cancellation
 * takes effect (and after today): the membership has ended by then, so those days are given back
 * to `pause_days_remaining` (and a PIF's end moves back). A pause in progress, or one inside the
 * last paid period (which it extends, so the member still has it), stays. Removing them moves no
 * period already charged, so undoing the cancellation plans from the same boundaries.
 */
function withoutBookedPauses(sub: SubscriptionRecord, today: CivilDate, effective: CivilDate) {
  const isBooked = (p: { start_date: string }) => p.start_date > today && p.start_date >= effective;
  const booked = (sub.pauses ?? []).filter(isBooked);
  const days = booked.reduce((sum, p) => sum + daysBetween(p.start_date, p.end_date), 0);
  const kept = (sub.pauses ?? []).filter((p) => !isBooked(p));
  const current = civilOf(sub.pause_start_at);
  const pifEnds = civilOf(sub.pif_ends_at);
  return {
    booked,
    sub: { ...sub, pauses: kept } as SubscriptionRecord,
    set: booked.length
      ? {
          pauses: kept,
          pause_days_remaining: sub.pause_days_remaining + days,
          ...(sub.billing_frequency === "one_off" && pifEnds
            ? { pif_ends_at: instantOf(addDays(pifEnds, -days)) }
            : {}),
        }
      : {},
    remove:
      booked.length && current && current > today
        ? (["paused_at", "pause_start_at", "pause_end_at"] as const)
        : ([] as const),
    detail: booked.length
      ? `; booked ${booked.length === 1 ? "pause" : "pauses"} removed (${plural(days, "pause day")} back)`
      : "",
  };
}

async function termsOf(sub: SubscriptionRecord, immediate: boolean, context: BillingContext = freshContext) {
  const [today, settings, gym] = await Promise.all([
    businessToday(),
    context.settingsOf(sub.organisation_id),
    context.gymOf(sub.organisation_id, sub.gym_id),
  ]);
  const basisPoints = breakFeeFor(settings, gym);
  const terms = cancellationTerms({
    today,
    immediate,
    schedule: scheduleOf(sub),
    term_ends_at: sub.is_term_membership ? civilOf(sub.term_ends_at) : null,
    cooling_period_ends_at: civilOf(sub.cooling_period_ends_at),
    break_fee_basis_points: basisPoints,
  });
  return { today, basisPoints, terms, settings, gym };
}

/**
 * The break fee as it will be charged (issue 34 item 5): credit first, then the card surcharge of
 * the method the claim will use. The dialogs confirm this total and the cancellation email states it.
 */
async function breakFeeQuote(
  sub: SubscriptionRecord,
  fee: number,
  today: CivilDate,
  settings: Awaited<ReturnType<BillingContext["settingsOf"]>>,
  gym: Awaited<ReturnType<BillingContext["gymOf"]>>,
) {
  if (fee <= 0) return null;
  return quoteOf({
    kind: "break_fee",
    amount: fee,
    credit_balance: sub.credit_balance ?? 0,
    balance_owing: sub.balance_owing ?? 0,
    method: await currentMethod(sub),
    rates: settings,
    gym,
    due_on: today,
    label: `Break fee: ${sub.price_label}`,
  });
}

/** What cancelling would mean (the confirm dialog shows it before staff or the member confirm). */
export async function cancellationPreview(
  actor: Actor,
  subscriptionId: string,
  immediate: boolean,
  find: SubscriptionFinder = staffReads,
) {
  const found = await find(actor, subscriptionId);
  // The organisation and gym read once for both terms (the gym is the session's when it has it).
  const context = batchContext({ gyms: actor.gymRecords });
  const first = await termsOf(found, immediate, context);
  const sub = withoutBookedPauses(found, first.today, first.terms.effective).sub;
  const { basisPoints, terms, today, settings, gym } = await termsOf(sub, immediate, context);
  const charge = await breakFeeQuote(sub, terms.break_fee, today, settings, gym);
  return {
    immediate,
    takes_effect_on: terms.effective,
    undo_cancellation_until: instantOf(terms.undo_until),
    within_term: terms.within_term,
    in_cooling_off: terms.in_cooling_off,
    remaining_term_value: terms.remaining_term_value,
    break_fee_basis_points: basisPoints,
    break_fee: terms.break_fee,
    formatted_break_fee: formatCents(terms.break_fee),
    break_fee_charge: charge,
  };
}

/** `POST /api/subscriptions/{id}/cancel`. */
export async function cancelSubscription(
  actor: Actor,
  subscriptionId: string,
  body: unknown,
  find: SubscriptionFinder = staffChanges,
) {
  const values = parse(cancelInput, body ?? {});
  const sub = await find(actor, subscriptionId);
  if (sub.cancelled_at) throw new ConflictError("This membership is already cancelled.", "already_cancelled");
  const now = await businessNow();
  // The organisation and gym read once for both terms, in this request (the gym is the session's).
  const context = batchContext({ gyms: actor.gymRecords });
  const first = await termsOf(sub, values.immediate, context);
  const unpaused = withoutBookedPauses(sub, first.today, first.terms.effective);
  const { today, basisPoints, terms, settings, gym } = await termsOf(unpaused.sub, values.immediate, context);
  const charge = await breakFeeQuote(unpaused.sub, terms.break_fee, today, settings, gym);
  const extra: PaymentRecord[] = [];
  let breakFeePaymentId: string | undefined;
  if (terms.break_fee > 0) {
    const fee = newPayment("break_fee", {
      sub,
      type: sub.payment_method === "bank_account" ? "bank_account" : "stripe_card",
      gym,
      settings,
      amount: terms.break_fee,
      today,
      remaining_term_value: terms.remaining_term_value,
    });
    breakFeePaymentId = fee.payment_id;
    extra.push(fee);
  }
  const saved = await commitFacts(
    actor,
    sub,
    {
      set: {
        cancelled_at: now.toISOString(),
        cancellation_effective_at: instantOf(terms.effective),
        undo_cancellation_until: instantOf(terms.undo_until),
        cancellation_reasons: values.cancellation_reasons,
        ...(values.cancellation_comments ? { cancellation_comments: values.cancellation_comments } : {}),
        cancelled_during_cooling_off_period: terms.in_cooling_off,
        ...(breakFeePaymentId ? { break_fee_payment_id: breakFeePaymentId } : {}),
        ...unpaused.set,
      },
      remove: [...unpaused.remove],
      event: {
        action: "cancel",
        detail: `Cancelled${values.immediate ? " immediately" : ""}, taking effect ${nzDate(terms.effective)}${
          terms.in_cooling_off ? " (inside the cooling-off period: no break fee)" : ""
        }${terms.break_fee > 0 ? `; break fee ${formatCents(terms.break_fee)}` : ""}${unpaused.detail}`,
      },
    },
    extra,
  );
  // Committed: the member is told, once (a second cancel is refused above). The cancellation
  // stands if the email cannot be sent; it is logged.
  // To the member as they are now (user/recipient.ts), not the subscription's snapshot.
  const to = await memberRecipient(sub.user_id, sub);
  await sendEmail(
    cancellationEmail({
      member_name: to.name,
      member_email: to.email,
      gym_name: sub.gym_name,
      gym_ref: { organisation_id: sub.organisation_id, gym_id: sub.gym_id },
      today,
      effective: terms.effective,
      undo_until: terms.undo_until,
      in_cooling_off: terms.in_cooling_off,
      break_fee: charge,
      break_fee_basis_points: basisPoints,
      remaining_term_value: terms.remaining_term_value,
    }),
  ).catch((error: Error) =>
    log.error("cancellation email not sent", { subscription_id: sub.subscription_id, error: error.message }),
  );
  return saved;
}
