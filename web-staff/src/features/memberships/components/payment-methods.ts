import { PIF_PAYMENT_METHODS } from "@gym/core/contract/lifecycle";

const methodLabels: Record<(typeof PIF_PAYMENT_METHODS)[number], string> = {
  eftpos: "Eftpos",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};

/** "Paid by" choices for a payment taken at the desk (a PIF membership, a manual payment). */
export const paymentMethodOptions = PIF_PAYMENT_METHODS.map((value) => ({
  value,
  label: methodLabels[value],
}));
