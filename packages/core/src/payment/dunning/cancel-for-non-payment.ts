/**
 * The end of dunning: a membership whose grace ended with debt owing is cancelled (by grace-expiry,
 * or by billing-run when a period falls due first), its door access revoked, the member emailed.
 */

import { aucklandDate } from "../../billing/calendar";
import { db } from "../../db/service";
import { emailSender } from "../../email/port";
import { log } from "../../log";
import { adjustUniqueMemberships } from "../../offering/unique-memberships";
import { deliverCommitted, outboxEvent, outboxItem } from "../../outbox/outbox";
import { scheduledChanges } from "../../rollup/money";
import { cancellationChange, type RollupChange, rollupItems, trialStopChanges } from "../../rollup/writes";
import type { SubscriptionRecord } from "../../subscription/store";
import { memberRecipient } from "../../user/recipient";
import { subscriptionDebt } from "../debt";
import { cancelledForNonPaymentEmail } from "../emails";
import { ATTENTION_FIELDS, findPayment } from "../store";

/** Cancels a subscription whose grace ended with debt owing; revokes door access; emails the member. */
export async function cancelForNonPayment(sub: SubscriptionRecord, now: Date): Promise<boolean> {
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
  // The cancellation itself: the counters, the subscription (as read, not cancelled since) and its
  // dunning item gone; with or without its upcoming payment (below).
  type Entities = Parameters<Parameters<ReturnType<typeof db>["transaction"]["write"]>[0]>[0];
  const cancellation = (
    { subscription, dunning, rollup, memberMonth, outboxEvent: outbox }: Entities,
    removed: ("next_retry_on" | "upcoming_payment_id")[],
    scheduled: RollupChange[],
  ) => [
    ...rollupItems(
      { rollup, memberMonth },
      leaving,
      ...trialStopChanges(sub, aucklandDate(now), 1),
      ...scheduled,
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
      .remove(removed)
      .add({ version: 1 })
      .where((a, op) => `${op.eq(a.version, sub.version)} AND ${op.notExists(a.cancelled_at)}`)
      .commit() as never,
    dunning.delete(key).commit() as never,
  ];
  // An upcoming payment already claimed (or gone) stays named, as when the write below is refused.
  const cancels = upcoming?.status === "upcoming" ? upcoming : null;
  const { canceled } = await db()
    .transaction.write((entities) => [
      ...cancellation(
        entities,
        sub.upcoming_payment_id && !cancels ? ["next_retry_on"] : ["next_retry_on", "upcoming_payment_id"],
        cancels ? scheduledChanges(cancels, null) : [],
      ),
      ...(cancels
        ? [
            entities.payment
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
  if (canceled) {
    // The upcoming payment may already be claimed or gone: cancel the subscription alone.
    const alone = await db()
      .transaction.write((entities) => cancellation(entities, ["next_retry_on"], []))
      .go();
    if (alone.canceled) return false;
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
