import type { PaymentType } from "@gym/core/contract/payment";
import type { RegistrationState } from "@gym/core/contract/registration";

/**
 * A subscribed member changing how they pay (after a declined payment, or whenever they like)
 * lands on the connected page, which says the method changed and what became of the amount owed
 * (issue 35). What was owed before the change travels in the navigation's state.
 */
export interface PaymentChange {
  /** Cents owed before the change (0: nothing was owed). */
  owed: number;
  /**
   * The declined payment owed before the change, if one was: the new method's retry of it is made
   * by a reaction a moment after the method is saved, so while the member's latest payment is still
   * this one the page waits for the retry before saying what became of the amount.
   */
  payment_id?: string;
}

/**
 * What the member owes while a payment has failed: the declined payment as the welcome page names
 * it ("Your payment of $24.36 was declined"), else the balance owing (0 when nothing failed).
 */
export function owedOf(state: RegistrationState | undefined): number {
  const sub = state?.subscription;
  if (!state?.payment_failed || !sub) return 0;
  const latest = sub.latest_payment;
  return declined(latest) ? latest.total : sub.balance_owing;
}

/** A payment the provider refused (what a new payment method is tried on). */
function declined<P extends { status: string }>(payment: P | null | undefined): payment is P {
  return Boolean(payment && ["failed", "declined"].includes(payment.status));
}

/** What the member owed before changing how they pay, and the declined payment that owed it. */
export function owedBefore(state: RegistrationState | undefined): PaymentChange {
  const owed = owedOf(state);
  const latest = state?.subscription?.latest_payment;
  return owed > 0 && declined(latest) ? { owed, payment_id: latest.id } : { owed };
}

/** The page that confirms a saved method: bank or card. */
export const connectedPath = (method: Pick<PaymentType, "type"> | null | undefined) =>
  method?.type === "bank_account" ? "/bank-account-connected" : "/card-connected";
