/** Price inputs with the spec's messages (001 §5, §8). Money is integer cents. */
import { z } from "zod";
import { billingFrequencies, chargeableAmount, termUnits } from "../billing/index";
import { civilDateField, messages, whenAnObject } from "./fields";

/** The spec's price messages, word for word, and ours for what the spec leaves open. */
export const priceMessages = {
  termUnit: "Please select a term unit",
  termAmount: "Please enter a term amount",
  cents: "Enter an amount in whole cents",
  negative: "The amount cannot be negative",
  frequency: "Choose a billing frequency",
  termAmountRange: "Enter a term amount from 1 to 1200",
  date: "Enter a date as YYYY-MM-DD",
  belowCardMinimum: "Enter $0.00 (nothing is charged) or at least $0.50: a card cannot be charged less",
  trialDays: "Enter a trial of 1 to 90 days",
  trialDaysMissing: "Enter how many days the trial lasts",
  trialPif: "A pay-in-full price cannot have a trial",
  visits: "Enter 1 to 1000 visits",
  visitsRecurring: "Only a pay-in-full price can be a visit pass",
  validDays: "Enter a pass valid for 1 to 3650 days",
  validDaysNotPass: "Only a visit pass has days of validity: enter its visits",
  validDaysAndTerm: "A pass is valid for its days or for a term, not both",
  kindPassVisits: "A pass needs its visits",
  kindPassDays: "Enter how many days the pass is valid",
  kindMismatch: (kind: string) => `These terms are not a ${kind === "pif" ? "pay-in-full" : kind} price`,
} as const;

/** The longest a pass may be valid for, in days (docs/offers.md "Visit passes"): ten years. */
export const MAX_PASS_VALID_DAYS = 3650;

/** What a price is (docs/offers.md "Visit passes"): billed per period, paid in full, or a pass. */
export const priceKinds = ["recurring", "pif", "pass"] as const;

/** The most visits a pass may carry (docs/offers.md "Visit passes"). */
export const MAX_PASS_VISITS = 1000;

/** The longest trial a price may carry (docs/offers.md "Trials"). */
export const MAX_TRIAL_DAYS = 90;

/** The largest price or joining fee: $100,000.00. */
export const MAX_PRICE_CENTS = 10_000_000;

const isMissing = (input: unknown) => input === undefined || input === null || input === "";

const cents = (requiredMessage: string) =>
  z
    .number({ error: (issue) => (isMissing(issue.input) ? requiredMessage : priceMessages.cents) })
    // Not .int(): zod reports that as invalid_type, which fieldErrors reads as "missing".
    .refine(Number.isSafeInteger, priceMessages.cents)
    .min(0, priceMessages.negative)
    .max(MAX_PRICE_CENTS, messages.max(MAX_PRICE_CENTS))
    // Issue 34: $0.10 was accepted, and every charge of it declined ("at least $0.50").
    .refine((v) => !Number.isSafeInteger(v) || v < 0 || chargeableAmount(v), priceMessages.belowCardMinimum);

/** A `kind: "pass"` body sent without a frequency is paid in full (docs/offers.md "Visit passes"). */
function withKindDefaults(body: unknown): unknown {
  const fields = body as { kind?: unknown; billing_frequency?: unknown } | null;
  if (fields && typeof fields === "object" && fields.kind === "pass" && fields.billing_frequency == null)
    return { ...fields, billing_frequency: "one_off" };
  return body;
}

/**
 * POST /api/offerings/{id}/prices and PUT /api/prices/{id}: amount (cents) and billing_frequency
 * required; private and joining_fee optional; term_unit and term_amount both or neither, and both
 * for a pay-in-full (one_off) price, whose term is the span it pays for
 * (a pass's may be its `valid_days` instead; docs/offers.md "Visit passes").
 */
const priceFields = z
  .object({
    amount: cents(messages.required),
    billing_frequency: z.enum(billingFrequencies, {
      error: (issue) => (isMissing(issue.input) ? messages.required : priceMessages.frequency),
    }),
    private: z.boolean().default(false),
    joining_fee: cents(messages.required)
      .nullish()
      .transform((v) => (v ? v : null)),
    term_unit: z
      .enum(termUnits, { error: priceMessages.termUnit })
      .nullish()
      .transform((v) => v ?? null),
    term_amount: z
      .number({ error: priceMessages.termAmountRange })
      .refine(Number.isInteger, priceMessages.termAmountRange)
      .min(1, priceMessages.termAmountRange)
      .max(1200, priceMessages.termAmountRange)
      .nullish()
      .transform((v) => v ?? null),
    /** docs/offers.md "Trials": the first `trial_days` days cost `trial_amount` cents (0: free). */
    trial_days: z
      .number({ error: priceMessages.trialDays })
      .refine(Number.isInteger, priceMessages.trialDays)
      .min(1, priceMessages.trialDays)
      .max(MAX_TRIAL_DAYS, priceMessages.trialDays)
      .nullish()
      .transform((v) => v ?? null),
    trial_amount: cents(messages.required)
      .nullish()
      .transform((v) => v ?? null),
    /** docs/offers.md "Visit passes": a pay-in-full price carrying visits is a pass. */
    visits: z
      .number({ error: priceMessages.visits })
      .refine(Number.isInteger, priceMessages.visits)
      .min(1, priceMessages.visits)
      .max(MAX_PASS_VISITS, priceMessages.visits)
      .nullish()
      .transform((v) => v ?? null),
    /** A pass's validity: it expires `valid_days` after its start (instead of a term). */
    valid_days: z
      .number({ error: priceMessages.validDays })
      .refine(Number.isInteger, priceMessages.validDays)
      .min(1, priceMessages.validDays)
      .max(MAX_PASS_VALID_DAYS, priceMessages.validDays)
      .nullish()
      .transform((v) => v ?? null),
    /**
     * Optional, and never stored: what the other fields make the price is its kind (`pass`: paid in
     * full with visits). Given, it must agree; `pass` also means paid in full when no frequency is sent.
     */
    kind: z
      .enum(priceKinds, { error: `Choose one of: ${priceKinds.join(", ")}` })
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((value, ctx) => {
    if (value.kind !== null && value.billing_frequency) {
      if (value.kind === "pass" && value.visits == null)
        ctx.addIssue({ code: "custom", path: ["visits"], message: priceMessages.kindPassVisits });
      if (value.kind === "pass" && value.valid_days == null && value.term_unit == null)
        ctx.addIssue({ code: "custom", path: ["valid_days"], message: priceMessages.kindPassDays });
      const made = priceKindOf(value);
      if (made !== value.kind && !(value.kind === "pass" && made === "pif"))
        ctx.addIssue({ code: "custom", path: ["kind"], message: priceMessages.kindMismatch(value.kind) });
    }
    if (value.valid_days != null && value.visits == null && value.kind !== "pass")
      ctx.addIssue({ code: "custom", path: ["valid_days"], message: priceMessages.validDaysNotPass });
    if (
      value.valid_days != null &&
      value.visits != null &&
      (value.term_unit != null || value.term_amount != null)
    )
      ctx.addIssue({ code: "custom", path: ["valid_days"], message: priceMessages.validDaysAndTerm });
    if (value.trial_amount != null && value.trial_days == null)
      ctx.addIssue({ code: "custom", path: ["trial_days"], message: priceMessages.trialDaysMissing });
    if (value.trial_days != null && value.billing_frequency === "one_off")
      ctx.addIssue({ code: "custom", path: ["trial_days"], message: priceMessages.trialPif });
    if (value.visits != null && value.billing_frequency !== "one_off")
      ctx.addIssue({ code: "custom", path: ["visits"], message: priceMessages.visitsRecurring });
    const hasUnit = value.term_unit != null;
    const hasAmount = value.term_amount != null;
    if (hasAmount && !hasUnit)
      ctx.addIssue({ code: "custom", path: ["term_unit"], message: priceMessages.termUnit });
    if (hasUnit && !hasAmount)
      ctx.addIssue({ code: "custom", path: ["term_amount"], message: priceMessages.termAmount });
    // Pay in full covers a fixed span: its term (docs/billing.md "Pay in full"), never an unstated
    // year; a pass's span may be its valid_days instead.
    if (
      value.billing_frequency === "one_off" &&
      !hasUnit &&
      !hasAmount &&
      value.valid_days == null &&
      value.kind !== "pass"
    ) {
      ctx.addIssue({ code: "custom", path: ["term_unit"], message: priceMessages.termUnit });
      ctx.addIssue({ code: "custom", path: ["term_amount"], message: priceMessages.termAmount });
    }
  }, whenAnObject);

export const priceInput = z.preprocess(withKindDefaults, priceFields).meta({
  id: "PriceInput",
  example: {
    amount: 2400,
    billing_frequency: "weekly",
    private: false,
    joining_fee: null,
    term_unit: null,
    term_amount: null,
    trial_days: 7,
    trial_amount: 0,
  },
});
export type PriceInput = z.output<typeof priceInput>;

/** The kind a price's fields make it: recurring, paid in full, or a pass (paid in full with visits). */
export function priceKindOf(price: {
  billing_frequency: string;
  visits?: number | null;
}): (typeof priceKinds)[number] {
  return price.billing_frequency !== "one_off" ? "recurring" : price.visits ? "pass" : "pif";
}

const civilDate = civilDateField(priceMessages.date);

/**
 * POST /api/prices/{id}/pro-rata: the member's start date and the billing date (Auckland calendar
 * dates). `link` is a private price link's token, for a member quoting a private price.
 */
export const proRataRequest = z
  .object({
    start_date: civilDate,
    billing_date: civilDate,
    link: z.string().trim().max(200).nullish(),
  })
  .meta({ id: "ProRataRequest", example: { start_date: "2026-03-02", billing_date: "2026-03-09" } });
export type ProRataRequest = z.input<typeof proRataRequest>;

export const privateLinkInput = z
  .object({ age_bypass: z.boolean().default(false) })
  .meta({ id: "PrivateLinkInput", example: { age_bypass: false } });

export const priceListQuery = z.object({
  include_archived: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
});

// ---- Answers -----------------------------------------------------------------------------------

const frequency = z.enum(billingFrequencies);

export const privateLinkSchema = z
  .object({ id: z.string(), url: z.string(), age_bypass: z.boolean(), created_at: z.string() })
  .meta({ id: "PrivateLink" });
export type PrivateLink = z.output<typeof privateLinkSchema>;

/** POST /api/prices/{id}/private-links. */
export const newPrivateLinkSchema = privateLinkSchema
  .extend({ price_id: z.string() })
  .meta({ id: "NewPrivateLink" });
export type NewPrivateLink = z.output<typeof newPrivateLinkSchema>;

/** A price with the spec's computed fields (001 §3). Money in integer cents; formatted_* are en-NZ dollars. */
export const priceSchema = z
  .object({
    id: z.string(),
    offering_id: z.string(),
    offering: z.object({ id: z.string(), name: z.string() }),
    gym: z.null(),
    amount: z.number().int(),
    formatted_amount: z.string(),
    billing_frequency: frequency,
    frequency_label: z.string().meta({ description: "one_off shows as PIF" }),
    label: z.string(),
    joining_fee: z.number().int().nullable(),
    formatted_joining_fee: z.string().nullable(),
    private: z.boolean(),
    private_links: z.array(privateLinkSchema),
    term_amount: z.number().int().nullable(),
    term_unit: z.enum(termUnits).nullable(),
    is_term_membership: z.boolean(),
    formatted_term: z.string().nullable(),
    trial_days: z.number().int().nullable().meta({ description: "A trial's length (docs/offers.md)" }),
    trial_amount: z.number().int().nullable().meta({ description: "Cents for the whole trial; 0 free" }),
    formatted_trial: z.string().nullable().meta({ description: 'e.g. "7-day free trial"' }),
    kind: z.enum(priceKinds).meta({
      description: 'A visit pass is a pay-in-full price with visits (docs/offers.md "Visit passes")',
    }),
    visits: z.number().int().nullable().meta({ description: "A pass's visits; null for other prices" }),
    valid_days: z.number().int().nullable().meta({
      description: "A pass valid for days from its start (else for its term); null for other prices",
    }),
    formatted_pass: z.string().nullable().meta({
      description: 'A pass in words: "10 visits, valid 90 days, $120.00 paid once"; null for other prices',
    }),
    membership_type: z.string(),
    total_value: z
      .number()
      .int()
      .nullable()
      .meta({ description: "A quote: the term starting today (Auckland)" }),
    formatted_total_value: z.string().nullable(),
    total_value_quoted_from: z.string().nullable(),
    surcharge: z.number().int(),
    formatted_surcharge: z.string(),
    amount_with_surcharge: z.number().int(),
    formatted_amount_with_surcharge: z.string(),
    grouping_unique_identifier: z.string(),
    subscriptions_count: z.number().int(),
    can_delete: z.boolean(),
    offered: z.boolean(),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Price" });
export type Price = z.output<typeof priceSchema>;

/** POST /api/prices/{id}/pro-rata: the first payment for a start date and billing date. */
export const proRataSchema = z
  .object({
    price_id: z.string(),
    price_label: z.string(),
    offering: z.object({ id: z.string(), name: z.string() }),
    billing_frequency: frequency,
    frequency_label: z.string(),
    start_date: z.string(),
    billing_date: z.string(),
    is_pro_rata: z.boolean(),
    pro_rata_days: z.number().int(),
    period_days: z.number().int(),
    period_start: z.string(),
    pro_rata_amount: z.number().int(),
    joining_fee: z.number().int(),
    first_payment_date: z.string(),
    first_payment_total: z.number().int(),
    first_full_payment_date: z.string(),
    second_payment_date: z.string().meta({
      description:
        "When the payment after the first falls (recurring_amount): billing_date after a pro-rata first payment, else one period after it",
    }),
    recurring_amount: z.number().int(),
    latest_billing_date: z.string(),
    formatted_pro_rata_amount: z.string(),
    formatted_joining_fee: z.string(),
    formatted_first_payment_total: z.string(),
    formatted_recurring_amount: z.string(),
    card_surcharge: z.number().int(),
    formatted_card_surcharge: z.string(),
    first_payment_total_with_card_surcharge: z.number().int(),
    formatted_first_payment_total_with_card_surcharge: z.string(),
    trial: z
      .object({
        days: z.number().int(),
        amount: z.number().int(),
        formatted_amount: z.string(),
        card_surcharge: z.number().int(),
        ends_on: z.string().meta({ description: "The first paid day (the trial's exclusive end)" }),
        last_day: z.string(),
      })
      .nullable()
      .meta({
        description:
          "The price's trial for this member (docs/offers.md \"Trials\"), or null; with one, the first_payment_* figures are the first paid charge's, due on ends_on",
      }),
  })
  .meta({ id: "ProRata" });
export type ProRata = z.output<typeof proRataSchema>;

/** What the web sends to POST /api/offerings/{id}/prices and PUT /api/prices/{id}. */
export type PriceBody = z.input<typeof priceFields>;
