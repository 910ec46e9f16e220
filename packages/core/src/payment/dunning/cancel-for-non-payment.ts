/**
 * The end of dunning: a membership whose grace ended with debt owing is cancelled (by grace-expiry,
 * or by billing-run when a period falls due first), its door access revoked, the member emailed.
 */

import { aucklandDate } from "../../billing/calendar";
import { type CancellationReason, cancelledTransiently, retryWait } from "../../db/retry";
import { db } from "../../db/service";
import { emailSender } from "../../email/port";
import { log } from "../../log";
import { adjustUniqueMemberships } from "../../offering/unique-memberships";
import { deliverCommitted, outboxEvent, outboxItem } from "../../outbox/outbox";
import { scheduledChanges } from "../../rollup/money";
import { cancellationChange, rollupItems, trialStopChanges } from "../../rollup/writes";
import { findSubscription, type SubscriptionRecord } from "../../subscription/store";
import { memberRecipient } from "../../user/recipient";
import { subscriptionDebt } from "../debt";
import { cancelledForNonPaymentEmail } from "../emails";
import { ATTENTION_FIELDS, findPayment } from "../store";

/**
 * Tries of the cancellation: a cancelled transaction (a conflict with another writer, or the
 * subscription or its upcoming payment changed since they were read) is tried again whole from
 * what is there now; after the last, the next pass (grace-expiry, or the billing run) takes it.
 */
const CANCEL_ATTEMPTS = 4;

/** Cancels a subscription whose grace ended with debt owing; revokes door access; emails the member. */
export async function cancelForNonPayment(sub: SubscriptionRecord, now: Date, attempt = 0): Promise<boolean> {
  const at = now.toISOString();
  const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
  // Only what the ledger says is owing ends a membership (payment/debt.ts): a debt paid off since
  // (a manual payment, a retry) clears the grace instead.
  const owed = await subscriptionDebt(sub);
  if (owed.balance_owing <= 0) {
    await db()
      .transaction.write(({ subscription, dunning }) => [
        subscription
          .patch(key)
          .set({ balance_owing: 0, periods_owing: 0, retries_done: 0 })
          .remove(["grace_period_ends_at", "failed_at", "next_retry_on", "final_notice_sent_at"])
          .add({ version: 1 })
          .where((a, op) => op.eq(a.version, sub.version))
          .commit() as never,
        dunning.delete(key).commit() as never,
      ])
      .go();
    return false;
  }
  // The upcoming payment as read: cancelled with the membership on the condition that it is still
  // as read (its version), so the scheduled-payment counters lose exactly what it added.
  const upcoming = sub.upcoming_payment_id
    ? await findPayment(sub.organisation_id, sub.upcoming_payment_id)
    : null;
  const leaving = cancellationChange(sub, aucklandDate(now), 1);
  // Door access is revoked through the outbox (member/hooks.ts): the event commits with the
  // cancellation, so a process that ends right after still leaves it to be delivered.
  const cancelled = outboxEvent("cancelled_for_non_payment", {
    organisation_id: sub.organisation_id,
    user_id: sub.user_id,
    subscription_id: sub.subscription_id,
  });
  // An upcoming payment already claimed (or gone) stays named on the subscription.
  const cancels = upcoming?.status === "upcoming" ? upcoming : null;
  // The cancellation: the counters, the subscription (as read, not cancelled since), its dunning
  // item gone, and its upcoming payment (as read) cancelled with it.
  const written = await db()
    .transaction.write(({ subscription, dunning, payment, rollup, memberMonth, outboxEvent: outbox }) => [
      ...rollupItems(
        { rollup, memberMonth },
        leaving,
        ...trialStopChanges(sub, aucklandDate(now), 1),
        ...(cancels ? scheduledChanges(cancels, null) : []),
      ),
      outboxItem({ outboxEvent: outbox }, cancelled),
      subscription
        .patch(key)
        .set({
          cancelled_at: at,
          cancellation_effective_at: at,
          undo_cancellation_until: at,
          cancellation_reasons: ["failed_payments"],
        })
        .remove(
          sub.upcoming_payment_id && !cancels ? ["next_retry_on"] : ["next_retry_on", "upcoming_payment_id"],
        )
        .add({ version: 1 })
        .where((a, op) => `${op.eq(a.version, sub.version)} AND ${op.notExists(a.cancelled_at)}`)
        .commit() as never,
      dunning.delete(key).commit() as never,
      ...(cancels
        ? [
            payment
              .patch({ organisation_id: sub.organisation_id, payment_id: cancels.payment_id })
              .set({
                status: "cancelled",
                error_description: "The membership was cancelled for non-payment.",
              })
              .remove(["work_key", "work_sort", "waiting_for", ...ATTENTION_FIELDS])
              .add({ version: 1 })
              .where((a, op) => `${op.eq(a.status, "upcoming")} AND ${op.eq(a.version, cancels.version)}`)
              .commit() as never,
          ]
        : []),
    ])
    .go();
  if (written.canceled) {
    // Nothing was written. Never the membership alone while its upcoming payment is still
    // upcoming: that payment would stay on the member's page and in the scheduled figures until it
    // fell due. Tried again whole, from the subscription and its payment as they are now (a payment
    // claimed meanwhile is then left named, as above).
    const reasons = (written.data ?? []) as CancellationReason[];
    if (attempt + 1 >= CANCEL_ATTEMPTS) {
      log.warn("cancellation for non-payment cancelled on every try: the next pass takes it", {
        subscription_id: sub.subscription_id,
        reasons: reasons.map((r) => r.code ?? "None").join(","),
      });
      return false;
    }
    if (cancelledTransiently(reasons)) await retryWait(attempt);
    const fresh = await findSubscription(sub.organisation_id, sub.subscription_id);
    // Cancelled, or its grace cleared or moved on, meanwhile: nothing for this pass to do.
    if (!fresh || fresh.cancelled_at || !fresh.grace_period_ends_at || fresh.grace_period_ends_at > at)
      return false;
    return cancelForNonPayment(fresh, now, attempt + 1);
  }
  try {
    await adjustUniqueMemberships(sub.organisation_id, sub.offering_id, sub.gym_id, -1);
  } catch (error) {
    log.error("unique memberships not adjusted", {
      subscription_id: sub.subscription_id,
      error: (error as Error).message,
    });
  }
  await deliverCommitted(cancelled);
  const to = await memberRecipient(sub.user_id, sub);
  await emailSender().send(
    cancelledForNonPaymentEmail({
      to: to.email,
      name: to.name,
      gym: sub.gym_name,
      gym_ref: { organisation_id: sub.organisation_id, gym_id: sub.gym_id },
      balance: owed.balance_owing,
    }),
  );
  return true;
}
