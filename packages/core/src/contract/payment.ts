/**
 * The payments calls' requests and answers (spec 001 §7 Payments and Registration-side), written
 * once: the routers declare them, core's presenters answer their types, the web reads the types.
 * Browser-safe (zod only). Money is integer cents; dates are Pacific/Auckland civil dates.
 * Over 300 lines because it is the whole of spec 001 §7's payments calls: the payment and the
 * subscription and payment type it answers with are declared together, since a payment's answer
 * nests them and both web apps import them as one set (23 files); each schema is declarative,
 * one `.meta({ id })` per OpenAPI component, with no logic to split out.
 */
import { z } from "zod";
import { civilDateField, messages } from "./fields";
import { conflictWith } from "./http";
import { promoCodeText } from "./promo";
import { moneyQuoteSchema } from "./quote";

/** Spec §4: sent (successful), upcoming, pending_request, awaiting_payment; anything else failed. */
export const paymentStatusValues = [
  "upcoming",
  "pending_request",
  "sent",
  "failed",
  "declined",
  "awaiting_payment",
  "cancelled",
] as const;
export type PaymentStatusValue = (typeof paymentStatusValues)[number];
export const paymentKindValues = ["stripe_card", "bank_account", "pif"] as const;
export type PaymentKindValue = (typeof paymentKindValues)[number];

/** A cancellation's break fee (payment `meta.kind`), told apart from the membership's own payments. */
export function isBreakFee(payment: { meta?: Record<string, unknown> | null }): boolean {
  return payment.meta?.kind === "break_fee";
}

/**
 * A subscription's next upcoming payment among its payments: the earliest due; on the same day the
 * break fee first (cancelling after cooling-off leaves it due today beside the period's payment),
 * then by id. One answer whatever order the payments were read in: the member page, the
 * subscription view and the quote all take it from here (a tie read in another order named the
 * period's payment where the break fee was due, a flaky lifecycle test).
 */
export function nextUpcoming<
  P extends { status: string; due_on: string; payment_id: string; meta?: Record<string, unknown> | null },
>(payments: readonly P[]): P | null {
  const rank = (p: P) => `${p.due_on}#${isBreakFee(p) ? 0 : 1}#${p.payment_id}`;
  return (
    payments.filter((p) => p.status === "upcoming").sort((a, b) => (rank(a) < rank(b) ? -1 : 1))[0] ?? null
  );
}

/** How a subscription's next payment is labelled: after a cancellation it may be the break fee. */
export function nextPaymentLabel(payment: { meta?: Record<string, unknown> | null } | null): string {
  return payment && isBreakFee(payment) ? "Break fee" : "Next payment";
}

export const paymentMessages = {
  required: messages.required,
  date: "Enter a date as YYYY-MM-DD",
  range: "The end date must be on or after the start date",
  status: "Choose a payment status",
  type: "Choose a payment type",
  cursor: "The page cursor is not valid; start from the first page",
  perPage: "Choose from 1 to 100 per page",
  amount: "Enter an amount in whole cents",
  amountOrPrice: "Choose a price or enter an amount",
  paymentType: "Choose card or bank account",
  days: "Choose from 1 to 31 days",
} as const;

const civilDate = civilDateField(paymentMessages.date);

const id = z.string().trim().min(1, paymentMessages.required).max(64);

/** The filters of the payments list and its export. Dates are the payments' due dates. */
export const paymentFilters = z
  .object({
    status: z.enum(paymentStatusValues, { error: paymentMessages.status }).optional(),
    gym_id: id.optional(),
    type: z.enum(paymentKindValues, { error: paymentMessages.type }).optional(),
    from: civilDate.optional(),
    to: civilDate.optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["to"], message: paymentMessages.range });
export type PaymentFilters = z.output<typeof paymentFilters>;

const paging = {
  cursor: z.string().max(2000, paymentMessages.cursor).optional(),
  per_page: z.coerce
    .number({ error: paymentMessages.perPage })
    .int(paymentMessages.perPage)
    .min(1, paymentMessages.perPage)
    .max(100, paymentMessages.perPage)
    .optional(),
};

/** `GET /api/payments` query. */
export const paymentListQuery = z
  .object({
    status: z.enum(paymentStatusValues, { error: paymentMessages.status }).optional(),
    gym_id: id.optional(),
    type: z.enum(paymentKindValues, { error: paymentMessages.type }).optional(),
    from: civilDate.optional(),
    to: civilDate.optional(),
    ...paging,
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["to"], message: paymentMessages.range });
export type PaymentListQuery = z.output<typeof paymentListQuery>;

/** `GET /api/users/{id}/payments` query. */
export const memberPaymentsQuery = z.object(paging);

/** `POST /api/payments/export` body: the list's filters (all optional). */
export const paymentExportBody = paymentFilters.meta({
  id: "PaymentExportInput",
  example: { status: "sent", from: "2026-11-01", to: "2026-11-30" },
});
export type PaymentExportBody = z.input<typeof paymentExportBody>;

export const paymentSchema = z
  .object({
    id: z.string(),
    amount: z.number().int(),
    formatted_amount: z.string(),
    surcharge: z.number().int(),
    formatted_surcharge: z.string(),
    total: z.number().int(),
    formatted_total: z.string(),
    period_start_at: z.string().nullable(),
    period_end_at: z.string().nullable(),
    due_on: z.string(),
    status: z.enum(paymentStatusValues),
    outcome: z.enum(["successful", "upcoming", "pending", "awaiting", "failed"]),
    /** A failed charge a retry or a desk payment has since paid in full: shown as cleared, not "Failed". */
    cleared_after_failure: z.boolean(),
    type: z.enum(paymentKindValues),
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    gym: z.object({ id: z.string(), name: z.string() }),
    price_label: z.string().nullable(),
    destination_account: z.string().nullable(),
    subscription: z.string().nullable(),
    is_retry: z.boolean(),
    is_pro_rata: z.boolean(),
    joining_fee: z.number().int(),
    /** Cents a promo code took off `amount` (docs/offers.md). */
    discount: z.number().int(),
    poll_count: z.number().int(),
    akahu_sid: z.string().nullable(),
    akahu_id: z.string().nullable(),
    stripe_id: z.string().nullable(),
    credit_used: z.number().int(),
    error_status: z.string().nullable(),
    error_description: z.string().nullable(),
    is_term_membership: z.boolean(),
    cooling_period_ends_at: z.string().nullable(),
    term_ends_at: z.string().nullable(),
    balance_owing: z.number().int(),
    periods_owing: z.number().int(),
    created_at: z.string(),
    force_amount: z.number().int().nullable(),
    processed_by: z.string().nullable(),
    meta: z.record(z.string(), z.unknown()).nullable(),
    tasks: z.array(z.string()),
    pif_payment: z
      .object({ id: z.string(), payment_method: z.enum(["eftpos", "cash", "bank_transfer"]) })
      .nullable(),
    waiting_for: z.string().nullable(),
  })
  .meta({ id: "Payment" });
export type Payment = z.output<typeof paymentSchema>;

/** `GET /api/surcharge-total` query: a price (its amount) or an amount, and how it is paid. */
export const surchargeTotalQuery = z
  .object({
    price_id: id.optional(),
    amount: z.coerce
      .number({ error: paymentMessages.amount })
      .int(paymentMessages.amount)
      .min(0, paymentMessages.amount)
      .max(10_000_000, paymentMessages.amount)
      .optional(),
    payment_type: z.enum(["stripe_card", "bank_account"], { error: paymentMessages.paymentType }).optional(),
    payment_type_id: id.optional(),
    gym_id: id.optional(),
  })
  .refine((v) => v.price_id !== undefined || v.amount !== undefined, {
    path: ["price_id"],
    message: paymentMessages.amountOrPrice,
  })
  .refine((v) => v.payment_type !== undefined || v.payment_type_id !== undefined, {
    path: ["payment_type"],
    message: paymentMessages.paymentType,
  });
export type SurchargeTotalQuery = z.output<typeof surchargeTotalQuery>;

export const surchargeTotalSchema = z
  .object({
    amount: z.number().int(),
    surcharge: z.number().int(),
    total: z.number().int(),
    formatted_amount: z.string(),
    formatted_surcharge: z.string(),
    formatted_total: z.string(),
    payment_type: z.enum(["stripe_card", "bank_account"]),
  })
  .meta({ id: "SurchargeTotal" });
export type SurchargeTotal = z.output<typeof surchargeTotalSchema>;

/** `GET /api/expected-payments-debugging` query. */
export const expectedPaymentsQuery = z.object({
  days: z.coerce
    .number({ error: paymentMessages.days })
    .int(paymentMessages.days)
    .min(1, paymentMessages.days)
    .max(31, paymentMessages.days)
    .optional(),
  /** Where the "needs attention" list goes on (`next_cursor` of the page before). */
  cursor: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}#[0-9A-Za-z]{1,64}$/, paymentMessages.cursor)
    .optional(),
});

const expectedGroup = z.object({
  gym: z.object({ id: z.string(), name: z.string() }),
  count: z.number().int(),
  amount: z.number().int(),
  surcharge: z.number().int(),
  total: z.number().int(),
  formatted_total: z.string(),
  by_type: z.record(z.string(), z.number().int()),
});

export const stuckReasons = [
  "overdue",
  "waiting_for_consent",
  "pending_too_long",
  "flagged",
  "awaiting_transfer",
] as const;
export type StuckReason = (typeof stuckReasons)[number];

export const expectedPaymentsSchema = z
  .object({
    today: z.string(),
    until: z.string(),
    days: z.array(
      z.object({
        date: z.string(),
        count: z.number().int(),
        total: z.number().int(),
        formatted_total: z.string(),
        gyms: z.array(expectedGroup),
      }),
    ),
    stuck: z.array(
      z.object({
        reason: z.enum(stuckReasons),
        detail: z.string(),
        payment: paymentSchema,
      }),
    ),
    /** What the daily reconciliation found the providers disagreeing with (docs/providers.md "Reconciliation"). */
    mismatches: z.array(
      z.object({
        payment_id: z.string(),
        user: z.object({ id: z.string(), name: z.string() }),
        gym: z.object({ id: z.string(), name: z.string() }),
        due_on: z.string(),
        provider: z.enum(["stripe", "akahu"]),
        provider_id: z.string(),
        kind: z.enum(["status", "amount", "not_ours", "missing"]),
        our_status: z.string(),
        our_amount: z.number().int(),
        provider_status: z.string().nullable(),
        provider_amount: z.number().int().nullable(),
        detail: z.string(),
        found_at: z.string(),
      }),
    ),
    /** Where the "needs attention" list (`stuck`, newest due first) goes on; null at its end. */
    next_cursor: z.string().nullable(),
    /** The debt owed now (cents, owing memberships): the dashboard's counters, no payment read. */
    owing: z.object({ amount: z.number().int(), count: z.number().int(), formatted_amount: z.string() }),
    /**
     * True when the bounded read of the payments due soon waiting for a new consent stopped before
     * the end (that list may miss some). The days' totals come from counters: never partial.
     */
    partial: z.boolean(),
  })
  .meta({ id: "ExpectedPayments" });
export type ExpectedPayments = z.output<typeof expectedPaymentsSchema>;

/** `POST /api/subscriptions` body: each field defaults to what registration stored. */
export const subscribeBody = z
  .object({
    price_id: id.optional(),
    gym_id: id.optional(),
    start_date: civilDate.optional(),
    billing_date: civilDate.optional(),
    payment_type_id: id.nullish(),
    /** A promo code typed on the join site (docs/offers.md); checked again when the membership is made. */
    promo_code: promoCodeText.optional(),
  })
  .meta({
    id: "SubscribeInput",
    example: { price_id: "01JBZ8R7Q0M3W4X5Y6Z7A8B9C0", start_date: "2026-12-01" },
  });
export type SubscribeBody = z.input<typeof subscribeBody>;

/** The subscription as the member and staff read it (its main fields; derived states alongside). */
const nullableString = z.string().nullable();

export const subscriptionSchema = z
  .object({
    id: z.string(),
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    gym: z.object({ id: z.string(), name: z.string() }),
    price: z.object({
      id: z.string(),
      label: z.string().nullish(),
      amount: z.number().int(),
      formatted_amount: z.string(),
      billing_frequency: z.string(),
      joining_fee: z.number().int(),
      offering: z.object({ id: z.string(), name: z.string().nullish() }),
    }),
    payment_method: z.string(),
    payment_type_id: nullableString,
    start_date: z.string(),
    billing_date: z.string(),
    current_period_start: nullableString,
    current_period_end: nullableString,
    paused_at: nullableString,
    pause_start_at: nullableString,
    pause_end_at: nullableString.meta({ description: "Exclusive: the first day running again" }),
    pause_last_day: nullableString.meta({ description: "Inclusive: the last paused day (YYYY-MM-DD)" }),
    pause_days_credit: z.number().int(),
    pause_days_remaining: z.number().int(),
    pauses: z.array(
      z.object({
        id: z.string(),
        start_date: z.string(),
        end_date: z.string(),
        created_at: z.string().optional(),
      }),
    ),
    cancelled_at: nullableString,
    cancellation_effective_at: nullableString,
    trial: z
      .object({
        ends_on: z.string().meta({ description: "The first paid day (the trial's exclusive end)" }),
        last_day: z.string(),
        amount: z.number().int(),
        formatted_amount: z.string(),
        in_trial: z.boolean().meta({ description: "Today is inside the trial: stop-trial is open" }),
      })
      .nullable()
      .meta({ description: 'The trial taken when joining (docs/offers.md "Trials"), or null' }),
    pass: z
      .object({
        visits: z.number().int(),
        used: z.number().int(),
        left: z.number().int(),
        last_visit_on: nullableString,
        last_day: z.string().meta({ description: "The pass's last valid day" }),
        door: z.boolean().meta({ description: "The pass opens the door today" }),
        reason: z.string().meta({ description: 'e.g. "7 of 10 visits left", "No visits left on the pass"' }),
      })
      .nullable()
      .meta({ description: 'A visit pass (docs/offers.md "Visit passes"), or null' }),
    cancellation_reasons: z.array(z.string()),
    cancellation_comments: nullableString,
    undo_cancellation_until: nullableString,
    cancelled_during_cooling_off_period: z.boolean(),
    grace_period_ends_at: nullableString,
    initial_state: nullableString,
    upcoming_state: nullableString,
    transition_to_date: nullableString,
    transition_to_price: nullableString,
    transition_takes_effect_at: nullableString,
    created_at: z.string(),
    force_price_amount: z.number().int().nullable(),
    is_staging: z.boolean(),
    cooling_period_ends_at: nullableString,
    is_term_membership: z.boolean(),
    on_term_membership_price: z.boolean(),
    term_ends_at: nullableString,
    latest_term_membership: nullableString,
    pif_ends_at: nullableString,
    private_price_link_id: nullableString,
    payments_sum: z.number().int(),
    formatted_payments_sum: z.string(),
    balance_owing: z.number().int(),
    formatted_balance_owing: z.string(),
    periods_owing: z.number().int(),
    /** Credit ahead from a manual payment beyond the debt, spent on later payments (docs/billing.md "Manual payments"). */
    credit_balance: z.number().int(),
    formatted_credit_balance: z.string(),
    hard_declined: z.boolean(),
    next_retry_on: nullableString,
    waiting_for_consent: z.boolean(),
    version: z.number().int(),
    upcoming_payment: paymentSchema.nullable(),
    /**
     * The next money event as the member will meet it (payment/quote.ts): the one figure every
     * page, dialog and email shows. Null when nothing more is to be paid, or where not read (lists).
     */
    next_charge: moneyQuoteSchema.nullable(),
    first_payment: paymentSchema.nullable(),
    latest_payment: paymentSchema.nullable(),
    payments: z.array(paymentSchema).optional(),
    // Derived states (spec 001 §4), computed on the business clock's now.
    is_paused: z.boolean(),
    pause_in_future: z.boolean(),
    is_cancelled: z.boolean(),
    cancellation_taken_effect: z.boolean(),
    undo_cancellation_possible: z.boolean(),
    in_grace_period: z.boolean(),
    grace_period_over: z.boolean(),
    is_upcoming: z.boolean(),
    is_active: z.boolean(),
    /** A pay-in-full membership whose bank transfer is not yet marked received (no door access). */
    is_awaiting_transfer: z.boolean(),
    card_colour: z.enum(["green", "amber", "red"]),
    on_cooling_period: z.boolean(),
    currently_within_term_membership: z.boolean(),
    membership_type: z.string(),
    has_scheduled_price_change: z.boolean(),
    price_change_takes_effect_at: nullableString,
    /** The price change still to come (subscription/schedule.ts `pendingPriceChange`); null once in effect. */
    pending_price_change: z
      .object({
        price_id: z.string(),
        label: nullableString,
        amount: z.number().int(),
        formatted_amount: z.string(),
        takes_effect_on: z.string(),
      })
      .nullable(),
    start_now_offered: z.boolean(),
    /** The lifecycle actions staff are offered now (billing/subscription-state.ts `OfferedActions`). */
    actions: z.object({
      pause: z.boolean(),
      remove_pause: z.boolean(),
      cancel: z.boolean(),
      undo_cancellation: z.boolean(),
      start_now: z.boolean(),
      manual_payment: z.boolean(),
    }),
    door_access: z.object({ standing: z.boolean(), reason: z.string() }),
  })
  .meta({ id: "Subscription" });
export type Subscription = z.output<typeof subscriptionSchema>;

/** 409 `subscription_exists`: the member already has a live membership, answered as `data`. */
export const subscriptionConflictSchema = conflictWith(subscriptionSchema).meta({ id: "SubscriptionExists" });

export const paymentTypeSchema = z
  .looseObject({
    id: z.string(),
    type: z.enum(["bank_account", "stripe_card"]),
    is_default: z.boolean(),
    status: z.string(),
    created_at: z.string(),
  })
  .meta({ id: "PaymentType" });
export type PaymentType = z.output<typeof paymentTypeSchema>;

/** The CSV export's columns, in order (amounts in dollars, dates en-NZ Pacific/Auckland). */
export const paymentExportColumns = [
  "Payment ID",
  "Due date",
  "Member",
  "Email",
  "Gym",
  "Membership",
  "Type",
  "Status",
  "Amount (NZD)",
  "Surcharge (NZD)",
  "Total (NZD)",
  "Period start",
  "Period end",
  "Retry",
  "Pro-rata",
  "Error",
  "Processed by",
  "Created",
  "Discount (NZD)",
] as const;
