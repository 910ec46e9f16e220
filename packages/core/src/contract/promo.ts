/**
 * Promo codes (docs/offers.md "Promo codes"): what organisation admins send to make and change one,
 * what the API answers, and the join site's check. Money in integer cents, percentages in basis
 * points; dates are civil dates (Pacific/Auckland).
 */
import { z } from "zod";
import { civilDateField, messages } from "./fields";

export const promoMessages = {
  code: "Use 3 to 30 letters, digits, - or _",
  percent: "Enter a percentage between 0.01% and 100%",
  amountOff: "Enter an amount off of at least $0.01",
  periods: "Enter a number of periods from 1 to 120, or leave it empty for every period",
  useLimit: "Enter a use limit from 1 to 1,000,000, or leave it empty for no limit",
  endsBeforeStart: "The end date must be on or after the start date",
  kind: "Choose percent or fixed amount off",
} as const;

/** A code as typed: trimmed and upper-cased, so "bf50" and "BF50" are one code. */
export const promoCodeText = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .max(30, promoMessages.code)
  .transform((v) => v.toUpperCase());

const codeField = promoCodeText.pipe(z.string().regex(/^[A-Z0-9_-]{3,30}$/, promoMessages.code));
const ids = z.array(z.string().trim().min(1).max(64)).max(100).default([]);
const optionalDate = civilDateField()
  .nullish()
  .transform((v) => v ?? null);

const terms = z.object({
  /** Null: every gym of the organisation. */
  gym_id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullish()
    .transform((v) => v ?? null),
  kind: z.enum(["percent", "fixed"], { error: promoMessages.kind }),
  /** For `percent`: 1 to 10 000 (0.01% to 100%). */
  percent_basis_points: z
    .number({ error: promoMessages.percent })
    .int(promoMessages.percent)
    .min(1, promoMessages.percent)
    .max(10_000, promoMessages.percent)
    .nullish()
    .transform((v) => v ?? null),
  /** For `fixed`: cents off each discounted period. */
  amount_off: z
    .number({ error: promoMessages.amountOff })
    .int(promoMessages.amountOff)
    .min(1, promoMessages.amountOff)
    .max(10_000_000, promoMessages.amountOff)
    .nullish()
    .transform((v) => v ?? null),
  /** Full periods discounted; null for every period. */
  periods: z
    .number({ error: promoMessages.periods })
    .int(promoMessages.periods)
    .min(1, promoMessages.periods)
    .max(120, promoMessages.periods)
    .nullish()
    .transform((v) => v ?? null),
  /** Empty lists: every offering and price. */
  offering_ids: ids,
  price_ids: ids,
  /** First and last day it may be used (inclusive); null: no limit. */
  starts_on: optionalDate,
  ends_on: optionalDate,
  /** Joins it may make in all; null: no limit. */
  use_limit: z
    .number({ error: promoMessages.useLimit })
    .int(promoMessages.useLimit)
    .min(1, promoMessages.useLimit)
    .max(1_000_000, promoMessages.useLimit)
    .nullish()
    .transform((v) => v ?? null),
});

type Terms = z.output<typeof terms>;

function checkTerms(v: Terms, ctx: z.RefinementCtx) {
  if (v.kind === "percent" && v.percent_basis_points === null)
    ctx.addIssue({ code: "custom", path: ["percent_basis_points"], message: promoMessages.percent });
  if (v.kind === "fixed" && v.amount_off === null)
    ctx.addIssue({ code: "custom", path: ["amount_off"], message: promoMessages.amountOff });
  if (v.starts_on && v.ends_on && v.ends_on < v.starts_on)
    ctx.addIssue({ code: "custom", path: ["ends_on"], message: promoMessages.endsBeforeStart });
}

export const promoCodeInput = terms
  .extend({ code: codeField })
  .superRefine(checkTerms)
  .meta({
    id: "PromoCodeInput",
    example: { code: "BF50", kind: "percent", percent_basis_points: 5_000, periods: 1, use_limit: 100 },
  });
export type PromoCodeInput = z.output<typeof promoCodeInput>;

/** PUT: the same terms; the code itself never changes (archive it and make another). */
export const promoCodeUpdate = terms.superRefine(checkTerms).meta({
  id: "PromoCodeUpdate",
  example: { kind: "fixed", amount_off: 1_000, periods: null, use_limit: 200 },
});
export type PromoCodeUpdate = z.output<typeof promoCodeUpdate>;

export const promoCodeStatuses = ["active", "scheduled", "expired", "used_up", "archived"] as const;
/** Each status as staff read it (docs/offers.md "Making a code"). */
export const promoCodeStatusLabels: Record<(typeof promoCodeStatuses)[number], string> = {
  active: "Active",
  scheduled: "Not started",
  expired: "Expired",
  used_up: "Used up",
  archived: "Archived",
};

export const promoCodeSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    gym: z.object({ id: z.string(), name: z.string() }).nullable(),
    kind: z.enum(["percent", "fixed"]),
    percent_basis_points: z.number().int().nullable(),
    amount_off: z.number().int().nullable(),
    /** "50%" or "$10.00". */
    formatted_off: z.string(),
    periods: z.number().int().nullable(),
    offering_ids: z.array(z.string()),
    price_ids: z.array(z.string()),
    starts_on: z.string().nullable(),
    ends_on: z.string().nullable(),
    use_limit: z.number().int().nullable(),
    uses: z.number().int(),
    uses_left: z.number().int().nullable(),
    status: z.enum(promoCodeStatuses),
    /** "50% off the first period", "$10.00 off every period". */
    summary: z.string(),
    archived_at: z.string().nullable(),
    created_at: z.string().nullable(),
  })
  .meta({ id: "PromoCode" });
export type PromoCode = z.output<typeof promoCodeSchema>;

export const promoCheckQuery = z.object({
  code: promoCodeText,
  price_id: z.string({ error: messages.required }).trim().min(1, messages.required).max(64),
  /** The method the total is for; default the member's default payment method. */
  payment_type: z.enum(["stripe_card", "bank_account"]).optional(),
  gym_id: z.string().trim().min(1).max(64).optional(),
  /** The membership's start and billing dates (default today, and the start): the first payment's figures. */
  start_date: civilDateField().optional(),
  billing_date: civilDateField().optional(),
});

/** What the join site shows once a code is accepted: one period before and after the discount, all-in. */
export const promoCheckSchema = z
  .object({
    code: z.string(),
    summary: z.string(),
    price_id: z.string(),
    /** One period of the price, before the discount. */
    amount: z.number().int(),
    discount: z.number().int(),
    /** One discounted period, surcharge included (the method's). */
    surcharge: z.number().int(),
    total: z.number().int(),
    formatted_amount: z.string(),
    formatted_discount: z.string(),
    formatted_surcharge: z.string(),
    formatted_total: z.string(),
    payment_type: z.enum(["stripe_card", "bank_account"]),
    periods: z.number().int().nullable(),
    /** The first payment with the code (pro-rata and joining fee as the schedule makes it), all-in. */
    first_payment: z.object({
      due_on: z.string(),
      /** Before the card surcharge, the discount taken off. */
      amount: z.number().int(),
      discount: z.number().int(),
      surcharge: z.number().int(),
      total: z.number().int(),
      formatted_discount: z.string(),
      formatted_total: z.string(),
    }),
  })
  .meta({ id: "PromoCheck" });
export type PromoCheck = z.output<typeof promoCheckSchema>;
