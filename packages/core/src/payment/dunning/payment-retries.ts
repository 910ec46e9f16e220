/**
 * payment-retries (jobs/schedule.ts): charge a subscription's whole balance as one `is_retry`
 * payment on the organisation's retry days (`retryBalance`, also used after a switch of payment
 * method: payment/consent.ts). When and how often is dunning's rule: billing/dunning.ts and
 * payment/dunning/rules.ts. Idempotent: the retry's id is deterministic and every write conditional.
 */

import { aucklandDate } from "../../billing/calendar";
import { db } from "../../db/service";
import type { PaymentTypeRecord } from "../../payment-type/present";
import { findPaymentTypes } from "../../payment-type/service";
import { racePoint } from "../../race-points";
import { findSubscription, type SubscriptionRecord } from "../../subscription/store";
import { gymOf, settingsOf } from "../context";
import { subscriptionDebt } from "../debt";
import { retryPaymentId } from "../ids";
import { eachLimited, type JobOptions } from "../jobs/options";
import { notePaymentMonths } from "../months";
import { newPayment } from "../new-payment";
import { type ChargeQueue, chargeQueue } from "../queue";
import type { PaymentRecord } from "../store";
import { dunningPages } from "./store";

/**
 * Charges a subscription's whole balance as one `is_retry` payment, claimed at creation
 * (`pending_request`), and queues it. `attempt` makes the id deterministic so a double run
 * creates one. Answers the payment, or null when there is nothing to retry (or a retry is in flight).
 */
export async function retryBalance(
  sub: SubscriptionRecord,
  now: Date,
  attempt: string,
  options: { queue?: ChargeQueue; paymentType?: PaymentTypeRecord | null; advancesSchedule?: boolean } = {},
): Promise<PaymentRecord | null> {
  if (sub.balance_owing <= 0 || sub.retry_payment_id) return null;
  // The balance is what the ledger says is owing now (payment/debt.ts), not a copy kept on the
  // subscription: a manual payment staff recorded is never collected again (issue 22).
  const owed = await subscriptionDebt(sub);
  if (owed.balance_owing <= 0) return null;
  const today = aucklandDate(now);
  const paymentId = retryPaymentId(sub.subscription_id, attempt, today);
  const types = sub.payment_type_id
    ? await findPaymentTypes([
        { organisation_id: sub.organisation_id, user_id: sub.user_id, payment_type_id: sub.payment_type_id },
      ])
    : new Map<string, PaymentTypeRecord>();
  const paymentType =
    options.paymentType ?? (sub.payment_type_id ? types.get(sub.payment_type_id) : undefined) ?? null;
  if (paymentType?.status !== "active") return null;
  const [settings, gym] = await Promise.all([
    settingsOf(sub.organisation_id),
    gymOf(sub.organisation_id, sub.gym_id),
  ]);
  const record = newPayment("retry", {
    sub,
    type: paymentType.type,
    payment_type_id: paymentType.payment_type_id,
    gym,
    settings,
    payment_id: paymentId,
    amount: owed.balance_owing,
    today,
    at: now.toISOString(),
    debt: owed,
  });
  const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
  await notePaymentMonths([record]);
  await racePoint("retry:read", sub.subscription_id);
  const { canceled } = await db()
    .transaction.write(({ payment, subscription, dunning }) => [
      payment.create(record).commit(),
      subscription
        .patch(key)
        .set({ retry_payment_id: paymentId, ...(options.advancesSchedule === false ? {} : {}) })
        .remove(["next_retry_on"])
        .add({ version: 1, retries_done: options.advancesSchedule === false ? 0 : 1 })
        .where((a, op) => op.eq(a.version, sub.version))
        .commit() as never,
      dunning.patch(key).remove(["retry_key", "retry_sort"]).commit() as never,
    ])
    .go();
  if (canceled) return null;
  const queue = options.queue ?? chargeQueue();
  await queue.send([
    { organisation_id: record.organisation_id, payment_id: paymentId, snapshot: record, paymentType },
  ]);
  return record;
}

/** payment-retries: the subscriptions whose retry day has come. */
export async function paymentRetries(now: Date, options: JobOptions = {}) {
  const queue = options.queue ?? chargeQueue();
  const today = aucklandDate(now);
  const summary = { due: 0, retried: 0, skipped: 0 };
  for await (const page of dunningPages("retry", today)) {
    summary.due += page.length;
    await eachLimited(page, 8, async (item) => {
      const sub = await findSubscription(item.organisation_id, item.subscription_id);
      if (!sub?.next_retry_on || sub.next_retry_on > today || sub.hard_declined || sub.cancelled_at) {
        summary.skipped += 1;
        return;
      }
      const retry = await retryBalance(sub, now, `scheduled#${sub.retries_done + 1}#${sub.next_retry_on}`, {
        queue,
      });
      if (retry) summary.retried += 1;
      else summary.skipped += 1;
    });
    options.onProgress?.(summary.due, "retries");
  }
  if (options.wait !== false) await queue.drain();
  return summary;
}
