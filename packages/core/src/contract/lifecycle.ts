/** Answers of the membership lifecycle calls (subscription/operations.ts). */
import { z } from "zod";

export const cancellationPreviewSchema = z
  .object({
    immediate: z.boolean(),
    takes_effect_on: z.string(),
    undo_cancellation_until: z.string(),
    within_term: z.boolean(),
    in_cooling_off: z.boolean(),
    remaining_term_value: z.number().int(),
    break_fee_basis_points: z.number().int(),
    break_fee: z.number().int(),
    formatted_break_fee: z.string(),
  })
  .meta({ id: "CancellationPreview" });
export type CancellationPreview = z.output<typeof cancellationPreviewSchema>;

export const priceChangeEmailSchema = z
  .object({
    subscription_id: z.string(),
    member_name: z.string(),
    takes_effect_on: z.string(),
    from_amount: z.number().int(),
    to_amount: z.number().int(),
    to: z.string(),
    reply_to: z.string().nullable(),
    subject: z.string(),
    text: z.string(),
  })
  .meta({ id: "PriceChangeEmail" });
export type PriceChangeEmail = z.output<typeof priceChangeEmailSchema>;

export const priceChangeHistorySchema = z
  .looseObject({
    id: z.string(),
    subscription_id: z.string(),
    from_price_id: z.string(),
    to_price_id: z.string(),
    from_amount: z.number().int(),
    to_amount: z.number().int(),
    takes_effect_on: z.string(),
    scheduled_at: z.string(),
  })
  .meta({ id: "PriceChange" });
export type PriceChange = z.output<typeof priceChangeHistorySchema>;

export const startEarlySchema = z
  .object({
    allowed: z.boolean(),
    start_date: z.string(),
    billing_date: z.string(),
    current_start_date: z.string(),
    first_payment: z
      .object({
        due_on: z.string(),
        period_start: z.string(),
        period_end: z.string(),
        amount: z.number().int(),
        joining_fee: z.number().int(),
        is_pro_rata: z.boolean(),
        formatted_amount: z.string(),
      })
      .nullable(),
  })
  .meta({ id: "StartEarlyData" });
export type StartEarlyData = z.output<typeof startEarlySchema>;
