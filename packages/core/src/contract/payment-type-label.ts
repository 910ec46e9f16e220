/**
 * A payment method as a person reads it, the one label for receipts, emails, the staff member page
 * and the join site: browser-safe (no records, no I/O).
 */

/** Card brands as Stripe names them (`card.brand`), as a person reads them. */
const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/**
 * A payment method as a person knows it: "Visa •••• 4242", "Bank account ••••1323" (the last four
 * digits of the account base); what is not known is left out ("Card", "Bank account").
 */
export function paymentTypeLabel(record: {
  type: string;
  card_type?: string | null;
  last_four?: string | null;
  account_number?: string | null;
}): string {
  if (record.type === "stripe_card") {
    const brand = record.card_type ? (CARD_BRANDS[record.card_type.toLowerCase()] ?? "Card") : "Card";
    return record.last_four ? `${brand} •••• ${record.last_four}` : brand;
  }
  const parts = (record.account_number ?? "").split(/[-\s]/);
  const base = parts.length === 4 ? parts[2].replace(/\D/g, "").slice(-4) : "";
  return base.length === 4 ? `Bank account ••••${base}` : "Bank account";
}
