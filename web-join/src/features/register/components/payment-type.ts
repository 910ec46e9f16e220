/** The join site shows a payment method by the one label (core/contract/payment-type-label.ts). */
export { paymentTypeLabel } from "@gym/core/contract/payment-type-label";
