/**
 * The quote of a member's next money event (issue 34, docs/billing.md "The quote of the next
 * money event"): what will be taken, from what, for what, when; computed once in core
 * (payment/quote.ts) and shown as is by every dialog, page, email, reminder and receipt.
 * Browser-safe (zod only). Money is integer cents with its formatted string beside it.
 */
import { z } from "zod";

/**
 * What the event is: the next scheduled payment, the retry of the balance owing, a break fee,
 * or a pay-in-full bank transfer waiting for staff to mark it received.
 */
export const quoteKinds = ["next_payment", "balance_owing", "break_fee", "awaiting_transfer"] as const;
export type QuoteKind = (typeof quoteKinds)[number];

export const moneyQuoteSchema = z
  .object({
    kind: z.enum(quoteKinds),
    /** How a person reads the kind: "Next payment", "Payment owed", "Break fee", "Awaiting bank transfer". */
    title: z.string(),
    /** The membership's label on the day it is due ("$20.00 Weekly · 12M Term"), when it is one. */
    label: z.string().nullable(),
    due_on: z.string().nullable(),
    /** The period it pays for: first day and the last day (inclusive), when it pays for one. */
    period_start: z.string().nullable(),
    period_last_day: z.string().nullable(),
    /** The amount before credit and surcharge. */
    amount: z.number().int(),
    formatted_amount: z.string(),
    /** Credit ahead spent on it (a manual payment's credit, docs/billing.md "Manual payments"). */
    credit_applied: z.number().int(),
    formatted_credit_applied: z.string(),
    /** The card surcharge of what is left to take. */
    surcharge: z.number().int(),
    formatted_surcharge: z.string(),
    /** What the member will pay: amount − credit applied + surcharge. */
    total: z.number().int(),
    formatted_total: z.string(),
    /** What the member owes now (failed charges, an unreceived transfer). */
    balance_owing: z.number().int(),
    formatted_balance_owing: z.string(),
    /** The credit held now, and what is left of it after this event. */
    credit_balance: z.number().int(),
    credit_after: z.number().int(),
    formatted_credit_after: z.string(),
    /** The payment method that will be used ("Visa •••• 4242", "Bank transfer"). */
    payment_method: z.object({ type: z.string(), label: z.string() }),
    /** One sentence a person reads: "$18.75 on 3 December 2026 from Visa •••• 4242 ($6.00 paid from your credit)". */
    summary: z.string(),
  })
  .meta({ id: "MoneyQuote" });
export type MoneyQuote = z.output<typeof moneyQuoteSchema>;
