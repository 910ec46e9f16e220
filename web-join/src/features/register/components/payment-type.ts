import type { PaymentType } from "@gym/core/contract/payment";

const brands: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express" };

/** "Visa ending 4242" or "Everyday 12-3140-•••1323-50". */
export function paymentTypeLabel(type: PaymentType): string {
  const fields = type as PaymentType & {
    card_type?: string;
    last_four?: string;
    name?: string;
    account_number?: string;
  };
  if (type.type === "stripe_card")
    return `${brands[fields.card_type ?? ""] ?? "Card"} ending ${fields.last_four ?? "••••"}`;
  return [fields.name, fields.account_number].filter(Boolean).join(" ") || "Bank account";
}
