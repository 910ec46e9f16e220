/**
 * What every settlement path shares (settle.ts, settle-paid.ts, settle-failed.ts): the records the
 * caller already holds, the provider ids an answer carries, and the reconciliation key of a
 * payment a provider charged.
 */

import type { MemberMonthState } from "../rollup/writes";
import { findSubscription, type SubscriptionRecord } from "../subscription/store";
import type { PaidHeld } from "./outcome";
import type { ChargeOutcome } from "./providers";
import { type PaymentRecord, workKeys } from "./store";

export type Ids = { stripe_id?: string; akahu_id?: string; akahu_sid?: string };

export function providerIds(payment: PaymentRecord, outcome: ChargeOutcome): Ids {
  if (outcome.state === "unknown" || !outcome.providerId) return {};
  if (payment.type === "stripe_card") return { stripe_id: outcome.providerId };
  return { akahu_id: outcome.providerId, ...(outcome.sid ? { akahu_sid: outcome.sid } : {}) };
}

/** The provider id the payment holds (the one our own charge call answered). */
export function heldId(payment: PaymentRecord): string | undefined {
  return payment.type === "stripe_card" ? payment.stripe_id : payment.akahu_id;
}

/**
 * A settled payment that a provider charged is checked once by the daily reconciliation
 * (reconcile.ts): the final write puts it in the work index under `reconcile#`.
 */
export function reconcileKey(payment: PaymentRecord, ids: Ids, at: string) {
  const providerId = heldId(payment) ?? ids.stripe_id ?? ids.akahu_id;
  return providerId ? workKeys.reconcile(payment.payment_id, at) : null;
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
  /** The member as they are now (user/recipient.ts: the receipt's address). */
  recipient?: PaidHeld["recipient"];
}

/** The subscription the caller holds for this payment, or read now. */
export async function subscriptionOf(payment: PaymentRecord, held: SettlementHeld) {
  if (!payment.subscription_id) return null;
  if (held.subscription !== undefined && held.subscription?.subscription_id === payment.subscription_id)
    return held.subscription;
  return findSubscription(payment.organisation_id, payment.subscription_id);
}
