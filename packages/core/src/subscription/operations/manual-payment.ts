/**
 * Manual payments (docs/billing.md "Manual payments"): a payment taken at the desk pays the
 * balance owing first (billing/lifecycle.ts `allocateManualPayment`), the rest is credit ahead.
 */
import type { Actor } from "../../auth/actor";
import { debt } from "../../billing/debt";
import { allocateManualPayment } from "../../billing/lifecycle";
import { formatCents } from "../../billing/money";
import { businessNow, businessToday } from "../../clock";
import { manualPaymentInput } from "../../contract/lifecycle";
import { ConflictError } from "../../errors";
import { outboxEvent } from "../../outbox/outbox";
import { debtChargeInFlight, inLedger, ledgerDebt, ledgerEntry } from "../../payment/debt";
import { newPayment } from "../../payment/new-payment";
import { subscriptionPayments } from "../../payment/store";
import { parse } from "../../validation";
import { commitFacts, reachableSubscription } from "../lifecycle";

/**
 * `POST /api/subscriptions/{id}/manual-payment`: a payment taken at the desk. It clears the owing
 * balance first (and with it grace and retries when all is paid); the rest is credit ahead
 * (`credit_balance`, spent as `credit_used` on later payments).
 */
export async function recordManualPayment(actor: Actor, subscriptionId: string, body: unknown) {
  const values = parse(manualPaymentInput, body);
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const now = await businessNow();
  const today = await businessToday();
  // The debt as the ledger says it is now (payment/debt.ts), paid off oldest first.
  const payments = await subscriptionPayments(sub.organisation_id, sub.user_id, sub.subscription_id);
  // Not while a retry of the balance is at the provider: it may still succeed, and the debt would
  // be collected twice. The write below is conditional on the version read, and starting a retry
  // changes the version, so a retry that starts meanwhile refuses this payment too (409).
  const inFlight = debtChargeInFlight(payments);
  if (inFlight)
    throw new ConflictError(
      `A retry of ${formatCents(inFlight.amount)} for the balance owing is being charged to the member's ${
        inFlight.type === "bank_account" ? "bank account" : "card"
      } right now. Record a payment once it has settled: if it succeeds, nothing is owing.`,
      "debt_charge_in_flight",
    );
  const split = allocateManualPayment(values.amount, ledgerDebt(payments).balance_owing);
  const at = now.toISOString();
  const debtAfter = debt([
    ...payments.filter(inLedger).map(ledgerEntry),
    { status: "sent", amount: values.amount, is_retry: false, settles_debt: true, created_at: at },
  ]);
  const payment = newPayment("manual", {
    sub,
    amount: values.amount,
    today,
    at,
    payment_method: values.payment_method,
    processed_by: actor.userId,
    debt_paid: split.debt_paid,
    credit: split.credit,
    debt_after: debtAfter,
  });
  const paymentId = payment.payment_id;
  const cleared = split.debt_paid > 0 && split.balance_after === 0;
  // The debt is written from the ledger read, on the condition that the subscription's version is
  // still the one read (a failure, a retry starting, a transfer marked received all change it). The
  // paid total and the credit are added to, never set from what was read: a billing run's claim
  // spends credit and a settlement adds to the paid total without changing the version, and a SET
  // of the figures read would undo theirs (issue 34: credit spent twice).
  const saved = await commitFacts(
    actor,
    sub,
    {
      set: {
        balance_owing: debtAfter.balance_owing,
        periods_owing: debtAfter.periods_owing,
        latest_payment_id: paymentId,
        ...(cleared ? { retries_done: 0 } : {}),
      },
      add: { payments_sum: values.amount, ...(split.credit > 0 ? { credit_balance: split.credit } : {}) },
      movesSchedule: false,
      remove: cleared ? ["grace_period_ends_at", "failed_at", "next_retry_on"] : [],
      event: {
        action: "manual_payment",
        detail: `${formatCents(values.amount)} by ${values.payment_method.replace("_", " ")}: ${formatCents(
          split.debt_paid,
        )} to the balance owing, ${formatCents(split.credit)} credit ahead`,
      },
    },
    [payment],
    // Its receipt, through the outbox: issued even if this process ends right after the commit.
    [outboxEvent("paid_at_desk", { organisation_id: sub.organisation_id, payment_id: paymentId })],
  );
  return saved;
}
