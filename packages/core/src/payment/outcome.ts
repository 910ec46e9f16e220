/**
 * "A payment reached its outcome": the ledger's event for the layers above it. A provider's answer
 * settles a payment as paid or failed (settle.ts), staff mark a transfer received (received.ts);
 * the members back-office reacts (member/hooks.ts: activity, door access, the receipt). A failed or
 * received outcome is an outbox event (`payment_outcome`, outbox/events.ts), written in the
 * payment's transaction: it survives a crash after the commit. So are a payment paid at the desk
 * and a subscription cancelled for non-payment.
 *
 * A paid settlement writes its own event (`payment_paid`: the receipt's email, door access), and
 * lets the subscriber add its own items to the settlement's transaction (`onPaidSettlement`: the
 * receipt and the activity entry, written exactly when the payment moves to paid). That one must
 * be wired: without it a settlement would lose its receipt, so it throws.
 */
import type { GymRecord } from "../gym/service";
import type { Organisation } from "../organisation/service";
import { outboxEvent } from "../outbox/outbox";
import type { PaymentTypeRecord } from "../payment-type/present";
import type { SubscriptionRecord } from "../subscription/store";
import type { Recipient } from "../user/recipient";
import type { PaymentRecord } from "./store";

export type PaymentOutcome = "paid" | "failed" | "received";

/** What the outcome tells about the payment. */
export type SettledPayment = {
  organisation_id: string;
  user_id: string;
  payment_id: string;
  subscription_id?: string | null;
  amount: number;
  surcharge?: number | null;
  is_retry?: boolean | null;
  due_on: string;
};

export type OutcomeDetail = { actor_id?: string; reason?: string | null };

/**
 * The outbox event of a payment paid by a provider's answer (outbox/events.ts `payment_paid`),
 * written in the settlement's transaction (settle-paid.ts) once it knows whether the member's
 * standing moved.
 */
export function paymentPaidEvent(payment: SettledPayment, standingChanged: boolean) {
  return outboxEvent("payment_paid", {
    organisation_id: payment.organisation_id,
    user_id: payment.user_id,
    payment_id: payment.payment_id,
    standing_changed: standingChanged,
  });
}

/**
 * The outbox event of a failed or received outcome (outbox/events.ts `payment_outcome`), written in
 * the transaction that moves the payment (settle-failed.ts, received.ts); the members back-office
 * handles it (member/hooks.ts).
 */
export function paymentOutcomeEvent(
  payment: SettledPayment,
  outcome: "failed" | "received",
  extra: OutcomeDetail = {},
  at = new Date(),
) {
  return outboxEvent("payment_outcome", {
    organisation_id: payment.organisation_id,
    user_id: payment.user_id,
    payment_id: payment.payment_id,
    subscription_id: payment.subscription_id ?? null,
    amount: payment.amount,
    surcharge: payment.surcharge ?? null,
    is_retry: payment.is_retry ?? null,
    due_on: payment.due_on,
    outcome,
    ...(extra.actor_id ? { actor_id: extra.actor_id } : {}),
    ...(extra.reason ? { reason: extra.reason } : {}),
    at: at.toISOString(),
  });
}

/** What the settlement holds already (read with the webhook's payment), so nothing is read twice. */
export interface PaidHeld {
  organisation?: Organisation | null;
  subscription: SubscriptionRecord | null;
  gym?: GymRecord | null;
  paymentType?: PaymentTypeRecord | null;
  /** The member as they are now (user/recipient.ts), when the caller read them already. */
  recipient?: Recipient;
}

/** The transaction entities a paid settlement offers its subscriber (ElectroDB's). */
export type PaidTransactionEntities = { receipt: unknown; memberActivity: unknown };

/** One settlement's part written by the subscriber, made once per settlement (whatever its tries). */
export interface PaidSettlement {
  /**
   * The transaction items, for the payment as it is written (status sent, `settled_at`), and what
   * the `payment_paid` event's handler is given when it is delivered inline (`held`).
   */
  prepare(
    paid: PaymentRecord,
    held: PaidHeld,
  ): Promise<{ items: (tx: PaidTransactionEntities) => never[]; held: unknown }>;
}

let makePaidSettlement: (() => PaidSettlement) | null = null;

/** Subscribes the one writer of a paid settlement's own items (core.ts). */
export function onPaidSettlement(make: () => PaidSettlement) {
  makePaidSettlement = make;
}

/** The subscriber's part of one paid settlement. */
export function paidSettlement(): PaidSettlement {
  if (!makePaidSettlement) throw new Error("paid settlement not wired: call createCore first (core.ts)");
  return makePaidSettlement();
}
