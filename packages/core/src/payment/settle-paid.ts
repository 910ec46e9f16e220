/**
 * Settlement of a paid answer (settle.ts `applyOutcome` calls it): the payment, its subscription's
 * debt and grace, the rollups, the receipt and the activity entry, in one transaction with its
 * `payment_paid` outbox event (the receipt's email, door access; delivered by the caller).
 */
import { aucklandDate } from "../billing/calendar";
import { db } from "../db/service";
import { type OutboxEvent, outboxItem } from "../outbox/outbox";
import { paymentRollup } from "../rollup/money";
import { writeCounted } from "../rollup/writes";
import type { AcceptedCall } from "../webhook-log/receive";
import { ledgerDebt, paysDebt } from "./debt";
import { type PaidSettlement, paymentPaidEvent } from "./outcome";
import type { ChargeOutcome } from "./providers";
import { providerIds, reconcileKey, type SettlementHeld, subscriptionOf } from "./settle-held";
import { ATTENTION_FIELDS, type PaymentRecord, subscriptionPayments } from "./store";

/**
 * Paid: one transaction moves the payment (conditional on the version read and on
 * `pending_request`), the subscription, the rollups and the member's month, and writes the receipt,
 * the activity entry, the webhook call's log (paidSettlement, `call`) and the `payment_paid` event
 * with them. A duplicate or late answer fails the payment's condition and writes none of it.
 */
export async function settleSucceeded(
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
    recipient: held.recipient,
  });
  // Standing (door access) moves only when the debt, the grace or the upcoming state does: the
  // event says so, decided with the subscription's write below (the last try's is the one committed).
  let event: OutboxEvent | undefined;
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
            outboxEvent,
          }) => {
            let standingChanged = true;
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
                  ...ATTENTION_FIELDS,
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
            event = paymentPaidEvent(payment, standingChanged);
            writes.push(outboxItem({ outboxEvent }, event));
            return writes;
          },
        )
        .go(),
    held.months,
  );
  if (!result.canceled && call) call.written = true;
  return { result, event: { ...(event as OutboxEvent), held: members.held } };
}
