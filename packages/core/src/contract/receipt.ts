import { z } from "zod";

/**
 * A receipt (docs/communications.md "Receipts"): New Zealand taxable supply information for a
 * paid payment. Money in integer cents with formatted strings beside it; dates are civil dates.
 */
export const receiptSchema = z
  .object({
    payment_id: z.string(),
    /** Unique within the organisation, e.g. "000042". */
    number: z.string(),
    /** "Tax invoice" when the organisation is GST-registered, else "Receipt". */
    title: z.string(),
    /** The date paid (Pacific/Auckland). */
    date: z.string(),
    issued_at: z.string(),
    supplier: z.object({
      legal_name: z.string(),
      trading_name: z.string(),
      gst_number: z.string().nullable(),
    }),
    customer: z.object({ name: z.string(), email: z.string() }),
    description: z.string(),
    /** The period paid for, first and last day; null for a payment that is not for a period. */
    period: z.object({ start: z.string(), end: z.string() }).nullable(),
    lines: z.array(z.object({ label: z.string(), amount: z.number().int(), formatted_amount: z.string() })),
    total: z.number().int(),
    formatted_total: z.string(),
    /** 3/23 of the total, rounded to the cent; null when not GST-registered. */
    gst_included: z.number().int().nullable(),
    formatted_gst_included: z.string().nullable(),
    payment_method: z.string(),
  })
  .meta({ id: "Receipt" });
export type Receipt = z.output<typeof receiptSchema>;
