/**
 * `POST /api/payments/{id}/received`: staff mark a bank transfer or manual payment received. The
 * payment moves `awaiting_payment` → `sent` with `processed_by` the staff member, conditional on
 * the status and version read (a second click, or two staff at once, gets 409), together with the
 * subscription's paid total and, for a pay-in-full transfer, its balance owing (owed until now) in
 * the same transaction, conditional on the subscription's version read and moving it on: a desk
 * payment of the same debt at the same moment (itself conditional on that version) and this cannot
 * both commit (issue 34).
 */

import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds, staffGymIds, staffOrganisation } from "../auth/scope";
import { aucklandDate } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { businessNow } from "../clock";
import type { Payment } from "../contract/payment";
import { db } from "../db/service";
import { ConflictError, NotFoundError } from "../errors";
import { deliverCommitted, outboxItem } from "../outbox/outbox";
import { racePoint } from "../race-points";
import { paymentRollup } from "../rollup/money";
import { writeCounted } from "../rollup/writes";
import { findSubscription } from "../subscription/store";
import { ledgerDebt, paysDebt } from "./debt";
import { paymentOutcomeEvent } from "./outcome";
import { presentPayment } from "./present";
import { ATTENTION_FIELDS, findPayment, subscriptionPayments } from "./store";

export const notAwaitingMessage = "This payment is not awaiting payment.";

export async function markPaymentReceived(actor: Actor, paymentId: string, attempt = 0): Promise<Payment> {
  const organisationId = staffOrganisation(actor);
  const payment = await findPayment(organisationId, paymentId);
  if (!payment || !staffGymIds(actor).includes(payment.gym_id)) throw new NotFoundError("payment");
  authorize(
    adminGymIds(actor).includes(payment.gym_id),
    "Only an admin of this gym can mark a payment received.",
  );
  if (payment.status !== "awaiting_payment")
    throw new ConflictError(notAwaitingMessage, "not_awaiting_payment");
  const now = await businessNow();
  const at = now.toISOString();
  const sub = payment.subscription_id
    ? await findSubscription(organisationId, payment.subscription_id)
    : null;
  // The ledger with this payment as it was read (awaiting): another staff member marking it
  // received at the same moment may already show it sent here, and that is not money taken at the
  // desk; the write below, conditional on the status read, tells them apart (not_awaiting_payment).
  const ledger = sub
    ? (await subscriptionPayments(organisationId, sub.user_id, sub.subscription_id)).map((p) =>
        p.payment_id === paymentId ? payment : p,
      )
    : [];
  // A charge awaiting payment (a pay-in-full transfer) is owed until received. When the desk has
  // meanwhile taken some of it (a manual payment pays debt), the transfer arriving as well would
  // collect that part twice: refuse, and say what was paid (docs/billing.md "Dunning → Debt").
  if (sub && !paysDebt(payment)) {
    const owing = ledgerDebt(ledger).balance_owing;
    if (owing < payment.amount)
      throw new ConflictError(
        `${formatCents(payment.amount - owing)} of this transfer's ${formatCents(payment.amount)} was already paid another way (a payment recorded at the desk). Marking it received would take that again: if the transfer arrived too, refund the difference to the member.`,
        "already_paid",
      );
  }
  // A transfer awaiting payment was owed from the day it was recorded (billing/debt.ts): what is
  // owing once it is received is the ledger's, with this payment sent.
  const after = sub
    ? ledgerDebt([
        ...ledger.filter((p) => p.payment_id !== paymentId),
        { ...payment, status: "sent", settled_at: at },
      ])
    : null;
  const owingBefore = sub?.balance_owing ?? 0;
  const owingAfter = after ? { balance_owing: after.balance_owing, periods_owing: after.periods_owing } : {};
  const counted = [
    paymentRollup(payment, sub, aucklandDate(now), {
      collected: payment.amount,
      collected_count: 1,
      ...(after && after.balance_owing !== owingBefore
        ? {
            owing: after.balance_owing - owingBefore,
            owing_count: (after.balance_owing > 0 ? 1 : 0) - (owingBefore > 0 ? 1 : 0),
          }
        : {}),
    }),
    // A paid-in-full transfer is what fell due on its due date (a scheduled one was counted by its claim).
    ...(payment.type === "pif" && !payment.is_retry
      ? [paymentRollup(payment, sub, payment.due_on, { expected: payment.amount, expected_count: 1 })]
      : []),
  ];
  // The members back-office's reaction (door access, the receipt, the activity), with the payment.
  const received = paymentOutcomeEvent(payment, "received", { actor_id: actor.userId }, now);
  await racePoint("received:read", payment.subscription_id);
  const { canceled } = await writeCounted(counted, (items) =>
    db()
      .transaction.write(
        ({ payment: payments, subscription, rollup, memberMonth, churnRisk, outboxEvent }) => [
          ...items({ rollup, memberMonth, churnRisk }),
          outboxItem({ outboxEvent }, received),
          payments
            .patch({ organisation_id: organisationId, payment_id: paymentId })
            .set({ status: "sent", processed_by: actor.userId, settled_at: at, charged_at: at })
            .remove(["work_key", "work_sort", ...ATTENTION_FIELDS])
            .add({ version: 1 })
            .where(
              (a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "awaiting_payment")}`,
            )
            .commit(),
          ...(payment.subscription_id
            ? [
                subscription
                  .patch({ organisation_id: organisationId, subscription_id: payment.subscription_id })
                  .set({ latest_payment_id: paymentId, ...owingAfter })
                  .add({ payments_sum: payment.amount, version: 1 })
                  .where((a, op) => (sub ? op.eq(a.version, sub.version) : op.exists(a.subscription_id)))
                  .commit(),
              ]
            : []),
        ],
      )
      .go(),
  );
  // Something changed meanwhile: the transfer was marked received by someone else, or its
  // subscription changed (a desk payment of the same amount, issue 34). Read again once: the checks
  // above then answer what happened (409 not_awaiting_payment or already_paid), or it goes through.
  if (canceled) {
    if (attempt < 1) return markPaymentReceived(actor, paymentId, attempt + 1);
    throw new ConflictError(notAwaitingMessage, "not_awaiting_payment");
  }
  const saved = await findPayment(organisationId, paymentId);
  if (!saved) throw new NotFoundError("payment");
  await deliverCommitted(received);
  return presentPayment(saved);
}
