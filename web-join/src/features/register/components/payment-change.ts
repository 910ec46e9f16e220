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
}

/** What the member owed before changing how they pay (0 when nothing had failed). */
export function owedBefore(state: RegistrationState | undefined): PaymentChange {
  const sub = state?.subscription;
  if (!state?.payment_failed || !sub) return { owed: 0 };
  return { owed: sub.balance_owing > 0 ? sub.balance_owing : (sub.latest_payment?.total ?? 0) };
}

/** The page that confirms a saved method: bank or card. */
export const connectedPath = (method: Pick<PaymentType, "type"> | null | undefined) =>
  method?.type === "bank_account" ? "/bank-account-connected" : "/card-connected";
