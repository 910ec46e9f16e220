/** Requests and answers of the membership lifecycle calls (subscription/operations/, pif/). */
import { z } from "zod";
import { addDays } from "../billing/calendar";
import { civilDateField, email, optionalText, requiredText } from "./fields";
import { subscriptionSchema } from "./payment";
import { moneyQuoteSchema } from "./quote";

const dateField = civilDateField();

/**
 * `POST /api/subscriptions/{id}/pause` and `POST /api/me/subscriptions/{id}/pause`: one meaning for
 * every caller. `pause_end_at` is **exclusive**: the first day the membership runs again ("Back on"),
 * as in the schedule's `[start, end)` and the answer's `pause_end_at`; the pause is `end − start`
 * days. The answer's `pause_last_day` is the inclusive last paused day (end − 1).
 */
export const pauseInput = z
  .object({ pause_start_at: dateField, pause_end_at: dateField })
  .meta({ example: { pause_start_at: "2030-01-10", pause_end_at: "2030-01-24" } });
export type PauseInput = z.input<typeof pauseInput>;

/**
 * A form that asks for the first and the **last** paused day, both included (the join site's
 * "First day" / "Last day"): validated with this, sent as `pauseFromDays(values)`, so a pause from
 * 10 Dec with last day 16 Dec is 7 days and the member is back on 17 Dec.
 */
export const pauseDaysInput = z.object({ pause_start_at: dateField, pause_last_day: dateField });
export type PauseDaysInput = z.input<typeof pauseDaysInput>;

export function pauseFromDays(values: { pause_start_at: string; pause_last_day: string }): PauseInput {
  return { pause_start_at: values.pause_start_at, pause_end_at: addDays(values.pause_last_day, 1) };
}

/** A server message about `pause_end_at` belongs on the form's last-day field. */
export const pauseDaysFieldMap = { pause_end_at: "pause_last_day" } as const;

/** `POST /api/subscriptions/{id}/cancel`: at the end of the paid period unless immediate. */
export const cancelInput = z.object({
  immediate: z.boolean().default(false),
  cancellation_reasons: z.array(z.string().trim().min(1).max(200)).max(20).default([]),
  cancellation_comments: z.string().trim().max(2000).optional(),
});
export type CancelInput = z.input<typeof cancelInput>;

/** The reasons staff pick from when cancelling (free text goes in the comments). */
export const CANCELLATION_REASONS = [
  "Moving away",
  "Cost",
  "Not using the gym",
  "Injury or health",
  "Joined another gym",
  "Unhappy with the service",
  "Other",
] as const;

/** `POST /api/subscriptions/schedule-price-change` and its email preview. */
export const priceChangeInput = z
  .object({
    subscription_ids: z
      .array(z.string().trim().min(1).max(64), { error: "Value is required" })
      .min(1, "Pick at least one member.")
      .max(200),
    price_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(64),
    transition_takes_effect_at: dateField.optional(),
  })
  .meta({
    example: { subscription_ids: ["01J0000000000000000000000A"], price_id: "01J0000000000000000000000B" },
  });
export type PriceChangeInput = z.input<typeof priceChangeInput>;

export const PIF_PAYMENT_METHODS = ["eftpos", "cash", "bank_transfer"] as const;
export type PifPaymentMethod = (typeof PIF_PAYMENT_METHODS)[number];

/** `POST /api/members/{id}/pif`: a pay-in-full membership for an existing member. */
export const addPifInput = z
  .object({
    price_id: requiredText(64),
    gym_id: requiredText(64),
    payment_method: z.enum(PIF_PAYMENT_METHODS, { error: "Choose eftpos, cash or bank transfer." }),
  })
  .meta({
    example: {
      price_id: "01J0000000000000000000000B",
      gym_id: "01J0000000000000000000000C",
      payment_method: "eftpos",
    },
  });
export type AddPifInput = z.input<typeof addPifInput>;

/**
 * `POST /api/organisations/{id}/members/onboard-pif`: staff create a member on a pay-in-full price;
 * the member is emailed a link to finish registration.
 */
export const onboardPifInput = addPifInput
  .extend({
    name: requiredText(120),
    email: email(),
    mobile_number: optionalText(30),
  })
  .meta({
    example: {
      name: "Riley Pif",
      email: "riley@example.com",
      mobile_number: "021 555 0199",
      price_id: "01J0000000000000000000000B",
      gym_id: "01J0000000000000000000000C",
      payment_method: "cash",
    },
  });
export type OnboardPifInput = z.input<typeof onboardPifInput>;

/** `POST /api/subscriptions/{id}/manual-payment`: cents taken at the desk. */
export const manualPaymentInput = z
  .object({
    amount: z
      .number({ error: "Value is required" })
      .int("Enter whole cents.")
      .min(1, "Enter an amount.")
      .max(10_000_000),
    payment_method: z.enum(PIF_PAYMENT_METHODS, { error: "Choose eftpos, cash or bank transfer." }),
  })
  .meta({ example: { amount: 6000, payment_method: "eftpos" } });
export type ManualPaymentInput = z.input<typeof manualPaymentInput>;

/** POST /api/subscriptions/{id}/pass-visits (docs/offers.md "Visit passes"): staff add visits, with a reason. */
export const passVisitsMessages = {
  visits: "Enter 1 to 100 visits",
  reason: "Say why the visits are added",
} as const;
export const passVisitsInput = z
  .object({
    visits: z
      .number({ error: passVisitsMessages.visits })
      .refine(Number.isInteger, passVisitsMessages.visits)
      .min(1, passVisitsMessages.visits)
      .max(100, passVisitsMessages.visits),
    reason: z
      .string({ error: passVisitsMessages.reason })
      .trim()
      .min(1, passVisitsMessages.reason)
      .max(500, "The maximum length allowed is 500 characters"),
  })
  .meta({ example: { visits: 2, reason: "The door failed on 3 March" } });
export type PassVisitsInput = z.input<typeof passVisitsInput>;

/**
 * The `Idempotency-Key` header of a staff change that must happen once (adding visits): the same
 * key sent again answers the first result and changes nothing, as the payment providers' keys do
 * (docs/providers.md). The web makes one per form opened.
 */
export const idempotencyMessages = {
  key: "Send an Idempotency-Key header: 8 to 100 letters, digits, - or _",
  reused: "This Idempotency-Key was sent before with another request",
} as const;
export const idempotencyKey = z
  .string({ error: idempotencyMessages.key })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, idempotencyMessages.key);
export const idempotencyHeaders = z.object({
  "idempotency-key": idempotencyKey.meta({
    description: "One per change: the same key again answers the first result and changes nothing",
    example: "add-visits-01JD3Q8Z5R6W",
  }),
});

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
    /** The break fee as it will be charged (surcharge and credit included): what the confirm button says. */
    break_fee_charge: moneyQuoteSchema.nullable(),
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

/** The answer of onboard-pif: the member, their PIF subscription, and whether a link was emailed. */
export const onboardedPifSchema = z
  .object({
    member: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    /** Null while an existing account's invitation waits for the person to accept. */
    subscription: subscriptionSchema.nullable(),
    invite_sent: z.boolean(),
    /** The address has an account: the person was invited, and nothing is made until they accept. */
    invitation_pending: z.boolean(),
  })
  .meta({ id: "OnboardedPif" });
export type OnboardedPif = z.output<typeof onboardedPifSchema>;

export const inviteSentSchema = z.object({ invite_sent: z.boolean() }).meta({ id: "InviteSent" });

/** A live membership the bulk price change may pick (`GET /api/prices/{id}/subscriptions`). */
export const priceChangeCandidateSchema = z
  .object({
    id: z.string(),
    member: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    gym: z.object({ id: z.string(), name: z.string() }),
    amount: z.number().int(),
    formatted_amount: z.string(),
    card_colour: z.enum(["green", "amber", "red"]),
    has_scheduled_price_change: z.boolean(),
  })
  .meta({ id: "PriceChangeCandidate" });
export type PriceChangeCandidate = z.output<typeof priceChangeCandidateSchema>;

export const priceChangeCandidatesQuery = z.object({ gym_id: z.string().min(1).max(64).optional() });
