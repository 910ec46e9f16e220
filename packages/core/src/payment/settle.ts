/**
 * Settlement: a provider's answer (from the charge call, a webhook, or a poll) moves an in-flight
 * payment to its final status, with the subscription's debt in the same transaction.
 *
 *  - Every write is conditional on the payment still being `pending_request` at the version read,
 *    so a final status never changes again, and duplicate, late or out-of-order answers change
 *    nothing (their write fails the condition; they are reported `unchanged`).
 *  - The subscription is written with its own version condition; a conflict (another payment of
 *    the same member settling at the same moment) re-reads and tries again.
 */

import { aucklandDate } from "../billing/calendar";
import { businessNow } from "../clock";
import { db } from "../db/service";
import { emailSender } from "../email/port";
import { log } from "../log";
import { settlementMetric } from "../metrics";
import { organisationSettings } from "../organisation/settings";
import { paymentRollup } from "../rollup/money";
import { type MemberMonthState, rollupItems, writeCounted } from "../rollup/writes";
import { findSubscription, type SubscriptionRecord } from "../subscription/store";
import type { AcceptedCall } from "../webhook-log/receive";
import { gymOf, settingsOf } from "./context";
import { ledgerDebt, paysDebt } from "./debt";
import { debtAfterFailure } from "./dunning/rules";
import { dunningKeys } from "./dunning/store";
import { paymentFailedEmail } from "./emails";
import { finalStatuses } from "./entity";
import { type PaidHeld, type PaidSettlement, paidSettlement, paymentSettled } from "./outcome";
import type { ChargeOutcome } from "./providers";
import { findPayment, type PaymentRecord, subscriptionPayments, workKeys } from "./store";

export type SettleResult = "settled" | "recorded" | "unchanged";

const MAX_ATTEMPTS = 6;

type Ids = { stripe_id?: string; akahu_id?: string; akahu_sid?: string };

function providerIds(payment: PaymentRecord, outcome: ChargeOutcome): Ids {
  if (outcome.state === "unknown" || !outcome.providerId) return {};
  if (payment.type === "stripe_card") return { stripe_id: outcome.providerId };
  return { akahu_id: outcome.providerId, ...(outcome.sid ? { akahu_sid: outcome.sid } : {}) };
}

/** The provider id the payment holds (the one our own charge call answered). */
function heldId(payment: PaymentRecord): string | undefined {
  return payment.type === "stripe_card" ? payment.stripe_id : payment.akahu_id;
}

/**
 * A settled payment that a provider charged is checked once by the daily reconciliation
 * (reconcile.ts): the final write puts it in the work index under `reconcile#`.
 */
function reconcileKey(payment: PaymentRecord, ids: Ids, at: string) {
  const providerId = heldId(payment) ?? ids.stripe_id ?? ids.akahu_id;
  return providerId ? workKeys.reconcile(payment.payment_id, at) : null;
}

/** Did the conditional write lose (someone else moved the payment or the subscription first)? */
function conflict(result: { canceled: boolean }) {
  return result.canceled;
}

/**
 * What the caller read with the payment (a webhook's one batch read: payment/webhooks.ts), used
 * on the first try instead of reading again; every write stays conditional on what was read.
 */
export interface SettlementHeld {
  subscription?: SubscriptionRecord | null;
  organisation?: PaidHeld["organisation"];
  gym?: PaidHeld["gym"];
  /** The payment type charged (the receipt names it; receipt/service.ts checks it is the payment's). */
  paymentType?: PaidHeld["paymentType"];
  /** Member-month rows (rollup/writes.ts `memberMonthId`). */
  months?: Map<string, MemberMonthState>;
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
          await paid.committed(settled.written, { standingChanged: settled.standingChanged });
          return "settled";
        }
        break;
      }
      case "failed":
        result = await settleFailed(payment, outcome, now, records, options.call);
        if (!conflict(result)) {
          settlementMetric(payment, outcome, options.source);
          await paymentSettled(payment, "failed", { reason: outcome.message });
          return "settled";
        }
        break;
    }
  }
  log.warn("settlement gave up after repeated conflicts", { payment_id: ref.payment_id });
  return "unchanged";
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

/** The subscription the caller holds for this payment, or read now. */
async function subscriptionOf(payment: PaymentRecord, held: SettlementHeld) {
  if (!payment.subscription_id) return null;
  if (held.subscription !== undefined && held.subscription?.subscription_id === payment.subscription_id)
    return held.subscription;
  return findSubscription(payment.organisation_id, payment.subscription_id);
}

/**
 * Paid: one transaction moves the payment (conditional on the version read and on
 * `pending_request`), the subscription, the rollups and the member's month, and writes the receipt,
 * the activity entry and the webhook call's log with them (paidSettlement, `call`). A duplicate or
 * late answer fails the payment's condition and writes none of it.
 */
async function settleSucceeded(
  payment: PaymentRecord,
  outcome: ChargeOutcome,
  now: Date,
  with_: { held: SettlementHeld; paid: PaidSettlement; call?: AcceptedCall },
) {
  const { held, call } = with_;
  const ids = providerIds(payment, outcome);
  const at = now.toISOString();
  const reconcile = reconcileKey(payment, ids, at);
  const clearsDebt = paysDebt(payment);
  // Read for its debt, and for the rollups' offering (docs/data-model.md "Rollups").
  const sub = await subscriptionOf(payment, held);
  // What is owing once this payment is sent, from the ledger (a period that failed while this retry
  // was in flight stays owing).
  const after =
    sub && clearsDebt
      ? ledgerDebt([
          ...(await subscriptionPayments(sub.organisation_id, sub.user_id, sub.subscription_id)).filter(
            (p) => p.payment_id !== payment.payment_id,
          ),
          { ...payment, status: "sent", settled_at: at },
        ])
      : null;
  const owingBefore = sub?.balance_owing ?? 0;
  const owingAfter = after ? after.balance_owing : owingBefore;
  const counted = paymentRollup(payment, sub, aucklandDate(now), {
    collected: payment.amount,
    collected_count: 1,
    ...(owingAfter !== owingBefore
      ? {
          owing: owingAfter - owingBefore,
          owing_count: (owingAfter > 0 ? 1 : 0) - (owingBefore > 0 ? 1 : 0),
        }
      : {}),
  });
  const written: PaymentRecord = {
    ...payment,
    ...ids,
    status: "sent",
    charged_at: payment.charged_at ?? at,
    settled_at: at,
  };
  const members = await with_.paid.prepare(written, {
    subscription: sub,
    organisation: held.organisation,
    gym: held.gym,
    paymentType: held.paymentType,
  });
  // Standing (door access) moves only when the debt, the grace or the upcoming state does.
  let standingChanged = true;
  const result = await writeCounted(
    [counted],
    (items) =>
      db()
        .transaction.write(
          ({
            payment: payments,
            subscription,
            dunning,
            paymentRef,
            rollup,
            memberMonth,
            churnRisk,
            receipt,
            memberActivity,
            webhookCall,
          }) => {
            const writes = [
              ...items({ rollup, memberMonth, churnRisk }),
              ...members.items({ receipt, memberActivity }),
              ...(call ? [webhookCall.create(call.item).commit() as never] : []),
              payments
                .patch({ organisation_id: payment.organisation_id, payment_id: payment.payment_id })
                .set({
                  ...ids,
                  ...reconcile,
                  status: "sent",
                  charged_at: payment.charged_at ?? at,
                  settled_at: at,
                  balance_owing: 0,
                  periods_owing: 0,
                })
                .remove([
                  ...(reconcile ? [] : (["work_key", "work_sort"] as const)),
                  "error_status",
                  "error_description",
                ])
                .add({ version: 1 })
                .where(
                  (a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "pending_request")}`,
                )
                .commit(),
            ];
            if (ids.akahu_id && ids.akahu_id !== payment.akahu_id) {
              writes.push(
                paymentRef
                  .put({
                    provider: "akahu",
                    external_id: ids.akahu_id,
                    organisation_id: payment.organisation_id,
                    payment_id: payment.payment_id,
                    created_at: at,
                  })
                  .commit() as never,
              );
            }
            if (payment.subscription_id) {
              const key = {
                organisation_id: payment.organisation_id,
                subscription_id: payment.subscription_id,
              };
              if (sub && after && after.balance_owing > 0) {
                // Paid part of the debt: what is left stays owing, grace and the retry days go on.
                writes.push(
                  subscription
                    .patch(key)
                    .set({
                      balance_owing: after.balance_owing,
                      periods_owing: after.periods_owing,
                      latest_payment_id: payment.payment_id,
                    })
                    .remove(["retry_payment_id"])
                    .add({ version: 1, payments_sum: payment.amount })
                    .where((a, op) => op.eq(a.version, sub.version))
                    .commit() as never,
                );
              } else if (sub && clearsDebt) {
                // A retry (or a payment marked as paying the debt) clears the debt and the grace.
                writes.push(
                  subscription
                    .patch(key)
                    .set({
                      balance_owing: 0,
                      periods_owing: 0,
                      retries_done: 0,
                      hard_declined: false,
                      latest_payment_id: payment.payment_id,
                    })
                    .remove([
                      "grace_period_ends_at",
                      "failed_at",
                      "next_retry_on",
                      "final_notice_sent_at",
                      "upcoming_state",
                      "retry_payment_id",
                    ])
                    .add({ version: 1, payments_sum: payment.amount })
                    .where((a, op) => op.eq(a.version, sub.version))
                    .commit() as never,
                  dunning.delete(key).commit() as never,
                );
              } else if (
                sub?.upcoming_state &&
                sub.first_payment_id === payment.payment_id &&
                (payment.charge_index === -1 || payment.charge_index === 0)
              ) {
                writes.push(
                  subscription
                    .patch(key)
                    .set({ latest_payment_id: payment.payment_id })
                    .remove(["upcoming_state"])
                    .add({ version: 1, payments_sum: payment.amount })
                    .where((a, op) => op.eq(a.version, sub.version))
                    .commit() as never,
                );
              } else {
                // Counters only: no version condition needed (ADD commutes; no other field is touched).
                standingChanged = false;
                writes.push(
                  subscription
                    .patch(key)
                    .set({ latest_payment_id: payment.payment_id })
                    .add({ payments_sum: payment.amount })
                    .commit() as never,
                );
              }
            }
            return writes;
          },
        )
        .go(),
    held.months,
  );
  if (!result.canceled) {
    members.written();
    if (call) call.written = true;
  }
  return { result, written, standingChanged };
}

async function settleFailed(
  payment: PaymentRecord,
  outcome: Extract<ChargeOutcome, { state: "failed" }>,
  now: Date,
  held: SettlementHeld,
  call: AcceptedCall | undefined,
) {
  const ids = providerIds(payment, outcome);
  const at = now.toISOString();
  const reconcile = reconcileKey(payment, ids, at);
  const sub = await subscriptionOf(payment, held);
  const settings = held.organisation
    ? organisationSettings(held.organisation)
    : await settingsOf(payment.organisation_id);
  const payments = sub
    ? await subscriptionPayments(sub.organisation_id, sub.user_id, sub.subscription_id)
    : [];
  const debt = sub ? debtAfterFailure(sub, payments, payment, outcome.hard, now, settings) : null;
  const owingBefore = sub?.balance_owing ?? 0;
  const owingAfter = debt?.balance_owing ?? owingBefore;
  const counted = paymentRollup(payment, sub, aucklandDate(now), {
    failed: payment.amount,
    failed_count: 1,
    owing: owingAfter - owingBefore,
    owing_count: (owingAfter > 0 ? 1 : 0) - (owingBefore > 0 ? 1 : 0),
  });
  const result = await db()
    .transaction.write(({ payment: payments, subscription, dunning, rollup, memberMonth, webhookCall }) => {
      const writes = [
        ...rollupItems({ rollup, memberMonth }, counted),
        ...(call ? [webhookCall.create(call.item).commit() as never] : []),
        payments
          .patch({ organisation_id: payment.organisation_id, payment_id: payment.payment_id })
          .set({
            ...ids,
            ...reconcile,
            status: outcome.hard ? "declined" : "failed",
            error_status: outcome.code,
            error_description: outcome.message,
            decline_kind: outcome.hard ? "hard" : "soft",
            charged_at: payment.charged_at ?? at,
            settled_at: at,
            balance_owing: debt?.balance_owing ?? payment.amount,
            periods_owing: debt?.periods_owing ?? 1,
          })
          .remove(reconcile ? [] : ["work_key", "work_sort"])
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "pending_request")}`)
          .commit(),
      ];
      if (sub && debt) {
        const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
        writes.push(
          subscription
            .patch(key)
            .set({
              balance_owing: debt.balance_owing,
              periods_owing: debt.periods_owing,
              failed_at: debt.failed_at,
              grace_period_ends_at: debt.grace_period_ends_at,
              hard_declined: debt.hard_declined,
              latest_payment_id: payment.payment_id,
              ...(debt.next_retry_on ? { next_retry_on: debt.next_retry_on } : {}),
              ...(sub.first_payment_id === payment.payment_id && sub.upcoming_state
                ? { upcoming_state: "failed" as const }
                : {}),
            })
            .remove([
              ...(debt.next_retry_on ? [] : (["next_retry_on"] as const)),
              ...(payment.is_retry ? (["retry_payment_id"] as const) : []),
            ])
            .add({ version: 1 })
            .where((a, op) => op.eq(a.version, sub.version))
            .commit() as never,
          dunning
            .put({
              ...key,
              ...dunningKeys.grace(sub.subscription_id, debt.grace_period_ends_at),
              ...(debt.next_retry_on ? dunningKeys.retry(sub.subscription_id, debt.next_retry_on) : {}),
            })
            .commit() as never,
        );
      }
      return writes;
    })
    .go();
  if (!result.canceled && call) call.written = true;
  if (!result.canceled && sub && debt) {
    const gym =
      held.gym?.gym_id === payment.gym_id ? held.gym : await gymOf(payment.organisation_id, payment.gym_id);
    try {
      await emailSender().send(
        paymentFailedEmail({
          to: sub.member_email,
          name: sub.member_name,
          gym: gym.name,
          gym_ref: { organisation_id: payment.organisation_id, gym_id: payment.gym_id },
          amount: payment.amount + payment.surcharge,
          reason: outcome.message,
          hard: debt.hard_declined,
          nextRetryOn: debt.next_retry_on,
          graceEndsAt: debt.grace_period_ends_at,
        }),
      );
    } catch (error) {
      log.error("payment failed email not sent", {
        payment_id: payment.payment_id,
        error: (error as Error).message,
      });
    }
  }
  return result;
}

export type { SubscriptionRecord };
