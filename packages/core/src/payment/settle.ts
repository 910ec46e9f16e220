/**
 * Settlement: a provider's answer (from the charge call, a webhook, or a poll) moves an in-flight
 * payment to its final status, with the subscription's debt in the same transaction.
 *
 *  - Every write is conditional on the payment still being `pending_request` at the version read,
 *    so a final status never changes again, and duplicate, late or out-of-order answers change
 *    nothing (their write fails the condition; they are reported `unchanged`).
 *  - The subscription is written with its own version condition; a conflict (another payment of
 *    the same member settling at the same moment, or DynamoDB's `TransactionConflict`) re-reads
 *    and tries again after a jittered wait (db/retry.ts); after the last try the answer is
 *    `deferred`, never a silent `unchanged`.
 *
 * This file is the entry (`applyOutcome`) and the pending answer; a paid answer is settled in
 * settle-paid.ts, a failed one in settle-failed.ts, and what they share is settle-held.ts.
 */

import { businessNow } from "../clock";
import { retryWait } from "../db/retry";
import { db } from "../db/service";
import { log } from "../log";
import { settlementDeferredMetric, settlementMetric } from "../metrics";
import { deliverCommitted } from "../outbox/outbox";
import type { SubscriptionRecord } from "../subscription/store";
import type { AcceptedCall } from "../webhook-log/receive";
import { finalStatuses } from "./entity";
import { paidSettlement } from "./outcome";
import type { ChargeOutcome } from "./providers";
import { settleFailed } from "./settle-failed";
import { heldId, providerIds, type SettlementHeld } from "./settle-held";
import { settleSucceeded } from "./settle-paid";
import { findPayment, type PaymentRecord } from "./store";

export type { SettlementHeld };
/**
 * `deferred`: every try was cancelled (conflicts); the payment is still `pending_request` in the
 * in-flight index, where polling asks the provider again, and the `SettlementsDeferred` metric
 * (alarmed) counts it.
 */
export type SettleResult = "settled" | "recorded" | "unchanged" | "deferred";

const MAX_ATTEMPTS = 6;

/** Did the conditional write lose (someone else moved the payment or the subscription first)? */
function conflict(result: { canceled: boolean }) {
  return result.canceled;
}

/**
 * Applies a provider's answer to a payment. `snapshot` (the payment as the caller last wrote it)
 * saves a read, and `held` the records read with it; they are re-read after a conflict. `call`:
 * the webhook call this answer came in, logged in the settlement's own transaction
 * (webhook-log/receive.ts).
 */
export async function applyOutcome(
  ref: { organisation_id: string; payment_id: string },
  outcome: ChargeOutcome,
  options: { snapshot?: PaymentRecord; source?: string; held?: SettlementHeld; call?: AcceptedCall } = {},
): Promise<SettleResult> {
  let snapshot = options.snapshot;
  let records: SettlementHeld = options.held ?? {};
  // The receipt's number is taken once, whatever the tries (paidSettlement).
  const paid = paidSettlement();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) await retryWait(attempt - 1);
    const payment = snapshot ?? (await findPayment(ref.organisation_id, ref.payment_id));
    if (!snapshot) records = {};
    snapshot = undefined;
    if (!payment || finalStatuses.includes(payment.status) || payment.status !== "pending_request")
      return "unchanged";
    // A payment's provider id is never replaced: an answer about another charge is not this one's.
    const heldProviderId = heldId(payment);
    if (
      outcome.state !== "unknown" &&
      outcome.providerId &&
      heldProviderId &&
      outcome.providerId !== heldProviderId
    ) {
      log.warn("provider answer for another charge refused", {
        payment_id: payment.payment_id,
        held: heldProviderId,
        answered: outcome.providerId,
        source: options.source,
      });
      return "unchanged";
    }
    const now = await businessNow();
    let result: { canceled: boolean } | null;
    switch (outcome.state) {
      case "unknown":
        return "unchanged";
      case "pending":
        result = await recordPending(payment, outcome, now);
        if (result === null) return "unchanged";
        if (!conflict(result)) return "recorded";
        break;
      case "succeeded": {
        const settled = await settleSucceeded(payment, outcome, now, {
          held: records,
          paid,
          call: options.call,
        });
        if (!conflict(settled.result)) {
          settlementMetric(payment, outcome, options.source);
          await deliverCommitted(settled.event);
          return "settled";
        }
        break;
      }
      case "failed": {
        const failed = await settleFailed(payment, outcome, now, records, options.call);
        if (!conflict(failed)) {
          settlementMetric(payment, outcome, options.source);
          await deliverCommitted(failed.event);
          return "settled";
        }
        break;
      }
    }
  }
  log.error("settlement deferred after repeated conflicts: polling asks the provider again", {
    payment_id: ref.payment_id,
    source: options.source,
  });
  settlementDeferredMetric(options.source);
  return "deferred";
}

/** The provider accepted the charge but has not settled it: keep its ids for polling and webhooks. */
async function recordPending(
  payment: PaymentRecord,
  outcome: Extract<ChargeOutcome, { state: "pending" }>,
  now: Date,
) {
  const ids = providerIds(payment, outcome);
  const known =
    payment.charged_at && (ids.stripe_id ?? ids.akahu_id) === (payment.stripe_id ?? payment.akahu_id);
  if (known) return null;
  if (!ids.akahu_id) {
    // One item: a plain conditional update (a transaction would cost twice the write capacity).
    try {
      await db()
        .entities.payment.patch({ organisation_id: payment.organisation_id, payment_id: payment.payment_id })
        .set({ ...ids, charged_at: payment.charged_at ?? now.toISOString() })
        .add({ version: 1 })
        .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "pending_request")}`)
        .go();
      return { canceled: false };
    } catch (error) {
      if (/conditional/i.test((error as Error).message)) return { canceled: true };
      throw error;
    }
  }
  return db()
    .transaction.write(({ payment: payments, paymentRef }) => [
      payments
        .patch({ organisation_id: payment.organisation_id, payment_id: payment.payment_id })
        .set({ ...ids, charged_at: payment.charged_at ?? now.toISOString() })
        .add({ version: 1 })
        .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "pending_request")}`)
        .commit(),
      ...(ids.akahu_id
        ? [
            paymentRef
              .put({
                provider: "akahu",
                external_id: ids.akahu_id,
                organisation_id: payment.organisation_id,
                payment_id: payment.payment_id,
                created_at: now.toISOString(),
              })
              .commit(),
          ]
        : []),
    ])
    .go();
}

export type { SubscriptionRecord };
