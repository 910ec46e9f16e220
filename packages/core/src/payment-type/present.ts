import type { EntityItem } from "electrodb";
import type { paymentTypeEntity } from "./entity";

/** One label for a payment method, everywhere (receipts, emails, both sites): contract/payment-type-label.ts. */
export { paymentTypeLabel } from "../contract/payment-type-label";

export type PaymentTypeRecord = EntityItem<typeof paymentTypeEntity>;

/** `12-3140-0171323-50` → `12-3140-•••1323-50`: bank and branch kept, the account base masked. */
export function maskAccountNumber(formatted: string | null | undefined): string {
  if (!formatted) return "••••";
  const digits = formatted.replace(/\D/g, "");
  if (digits.length < 8) return `••••${digits.slice(-2)}`;
  const parts = formatted.split(/[-\s]/);
  if (parts.length === 4) {
    const [bank, branch, base, suffix] = parts;
    return `${bank}-${branch}-•••${base.slice(-4)}-${suffix}`;
  }
  return `••••${digits.slice(-4)}`;
}

/** Spec §3 Payment type: id, type; bank_account (account number, name, status, meta); stripe_card (card type, expiry, last four, country). */
export function presentPaymentType(record: PaymentTypeRecord) {
  const base = {
    id: record.payment_type_id,
    type: record.type,
    is_default: record.is_default,
    status: record.status,
    created_at: record.created_at,
  };
  if (record.type === "bank_account") {
    const meta = (record.meta ?? {}) as Record<string, unknown>;
    return {
      ...base,
      account_number: record.account_number ?? null,
      name: record.name ?? null,
      meta: { bank: (meta.bank as string | undefined) ?? null, account_name: record.name ?? null },
      reauthenticate_akahu: record.status === "reauthenticate",
    };
  }
  return {
    ...base,
    card_type: record.card_type ?? null,
    exp_month: record.exp_month ?? null,
    exp_year: record.exp_year ?? null,
    last_four: record.last_four ?? null,
    country: record.country ?? null,
  };
}

export type PaymentTypeView = ReturnType<typeof presentPaymentType>;
