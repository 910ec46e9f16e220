/**
 * The charge consumer: one claimed (`pending_request`) payment → one provider call carrying the
 * payment's idempotency key → its outcome recorded (settle.ts). The same function runs in the
 * SQS consumer Lambda and in-process locally. It never claims: only claimed payments are charged.
 *
 * Recovery re-drives a claimed payment whose outcome was never recorded (a crash between the
 * provider call and our write, a lost message) through this same function with the same key, so
 * the provider answers the original charge instead of making a second one. A bank payment past
 * Akahu's 24-hour key window is reconciled by listing the member's Akahu payments for our id
 * first; it is charged only when Akahu has none.
 */
import { aucklandDate } from "../billing/calendar";
import { businessNow } from "../clock";
import { appFor } from "../gym/akahu-app";
import { log } from "../log";
import { memberAkahuConnection } from "../payment-type/bank-connection";
import type { PaymentTypeRecord } from "../payment-type/present";
import { findPaymentType } from "../payment-type/service";
import { gymOf } from "./context";
import { idempotencyKeyOf } from "./ids";
import { type ChargeOutcome, chargeBank, chargeCard, findBankPaymentFor } from "./providers";
import type { ChargeMessage } from "./queue";
import { applyOutcome, type SettleResult } from "./settle";
import { findPayment, type PaymentRecord } from "./store";

/** Akahu keeps idempotency keys 24 hours; past this age a re-drive reconciles by listing first. */
export const AKAHU_KEY_WINDOW_MS = 23 * 60 * 60 * 1000;

/** Test hooks: inject a crash after the provider accepted a charge and before our write. */
export const chargeHooks: { afterProviderCall?: (payment: PaymentRecord, outcome: ChargeOutcome) => void } =
  {};

/** The 12-character code our payment id travels under in a bank payment (particulars). */
export function bankPaymentCode(paymentId: string): string {
  return paymentId.slice(-12);
}

function periodText(payment: PaymentRecord): string {
  const start = payment.period_start_at ? aucklandDate(new Date(payment.period_start_at)) : payment.due_on;
  const [y, m] = start.split("-");
  const month = new Date(Date.UTC(Number(y), Number(m) - 1, 1)).toLocaleString("en-NZ", {
    month: "short",
    timeZone: "UTC",
  });
  return `${month.toUpperCase()}${y.slice(2)}`;
}

export type ChargeResult = SettleResult | "skipped" | "failed_to_start";

async function failWithoutCharge(
  payment: PaymentRecord,
  code: string,
  message: string,
): Promise<ChargeResult> {
  return applyOutcome(payment, { state: "failed", code, message, hard: true }, { snapshot: payment });
}

export async function chargeClaimed(message: ChargeMessage): Promise<ChargeResult> {
  const payment = message.snapshot ?? (await findPayment(message.organisation_id, message.payment_id));
  if (payment?.status !== "pending_request") return "skipped";
  if (payment.charged_at && (payment.stripe_id || payment.akahu_id)) return "skipped"; // recorded: polling settles it
  const paymentType: PaymentTypeRecord | null =
    message.paymentType ??
    (payment.payment_type_id
      ? await findPaymentType(payment.organisation_id, payment.user_id, payment.payment_type_id)
      : null);
  if (!paymentType || paymentType.status === "removed") {
    return failWithoutCharge(payment, "no_payment_method", "There is no payment method to charge.");
  }
  if (paymentType.status === "revoked") {
    return failWithoutCharge(payment, "CONSENT_REVOKED", "The payment method was withdrawn.");
  }
  const gym = await gymOf(payment.organisation_id, payment.gym_id);
  const key = idempotencyKeyOf(payment.payment_id);
  const total = payment.amount + payment.surcharge;
  let outcome: ChargeOutcome;

  if (paymentType.type === "stripe_card") {
    const account = paymentType.stripe_account ?? gym.stripe_id;
    if (!account || !paymentType.stripe_customer_id || !paymentType.stripe_payment_method_id) {
      return failWithoutCharge(payment, "card_not_usable", "The saved card cannot be charged at this gym.");
    }
    outcome = await chargeCard({
      account,
      customerId: paymentType.stripe_customer_id,
      paymentMethodId: paymentType.stripe_payment_method_id,
      amount: total,
      idempotencyKey: key,
      description: `${gym.name} membership ${periodText(payment)}${payment.is_retry ? " (balance)" : ""}`,
      metadata: {
        payment_id: payment.payment_id,
        organisation_id: payment.organisation_id,
        gym_id: payment.gym_id,
        subscription_id: payment.subscription_id ?? "",
        user_id: payment.user_id,
        payment_type_id: payment.payment_type_id ?? "",
      },
    });
  } else {
    const meta = (paymentType.meta ?? {}) as { akahu_account_id?: string; gym_id?: string };
    const connection = await memberAkahuConnection(payment.organisation_id, payment.user_id);
    if (!connection || !meta.akahu_account_id) {
      return failWithoutCharge(payment, "CONSENT_REVOKED", "The bank connection is no longer there.");
    }
    if (!gym.destination_account) {
      return failWithoutCharge(payment, "no_destination_account", "The gym has no account to pay into.");
    }
    const app = await appFor(payment.organisation_id, meta.gym_id ?? connection.gym_id);
    const code = bankPaymentCode(payment.payment_id);
    const now = await businessNow();
    const claimedAt = payment.claimed_at ? Date.parse(payment.claimed_at) : now.getTime();
    if (now.getTime() - claimedAt > AKAHU_KEY_WINDOW_MS) {
      // Akahu has forgotten the key: only Akahu's own list can say whether it was charged.
      const found = await findBankPaymentFor(app, connection.token, code, new Date(claimedAt));
      if (found) return applyOutcome(payment, found, { snapshot: payment, source: "reconcile" });
    }
    outcome = await chargeBank({
      app,
      userToken: connection.token,
      fromAccount: meta.akahu_account_id,
      to: { name: gym.destination_account.name, account_number: gym.destination_account.bank_account_number },
      amount: total,
      reference: { particulars: code, code: periodText(payment), reference: gym.name.slice(0, 12) },
      idempotencyKey: key,
    });
  }

  chargeHooks.afterProviderCall?.(payment, outcome);
  if (outcome.state === "unknown") {
    log.warn("charge outcome unknown; polling re-drives it", {
      payment_id: payment.payment_id,
      error: outcome.message,
    });
    return "failed_to_start";
  }
  return applyOutcome(payment, outcome, { snapshot: payment, source: "charge" });
}
