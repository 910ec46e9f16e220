/** Price inputs with the spec's messages (001 §5, §8). Money is integer cents. */
import { z } from "zod";
import { billingFrequencies, isCivilDate, termUnits } from "../billing/index";
import { whenAnObject } from "../offering/schemas";
import { messages } from "../validation";

/** The spec's price messages, word for word, and ours for what the spec leaves open. */
export const priceMessages = {
  termUnit: "Please select a term unit",
  termAmount: "Please enter a term amount",
  cents: "Enter an amount in whole cents",
  negative: "The amount cannot be negative",
  frequency: "Choose a billing frequency",
  termAmountRange: "Enter a term amount from 1 to 1200",
  date: "Enter a date as YYYY-MM-DD",
} as const;

/** The largest price or joining fee: $100,000.00. */
export const MAX_PRICE_CENTS = 10_000_000;

const isMissing = (input: unknown) => input === undefined || input === null || input === "";

const cents = (requiredMessage: string) =>
  z
    .number({ error: (issue) => (isMissing(issue.input) ? requiredMessage : priceMessages.cents) })
    // Not .int(): zod reports that as invalid_type, which fieldErrors reads as "missing".
    .refine(Number.isSafeInteger, priceMessages.cents)
    .min(0, priceMessages.negative)
    .max(MAX_PRICE_CENTS, messages.max(MAX_PRICE_CENTS));

/**
 * POST /api/offerings/{id}/prices and PUT /api/prices/{id}: amount (cents) and billing_frequency
 * required; private and joining_fee optional; term_unit and term_amount both or neither.
 */
export const priceInput = z
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
  })
  .superRefine((value, ctx) => {
    const hasUnit = value.term_unit != null;
    const hasAmount = value.term_amount != null;
    if (hasAmount && !hasUnit)
      ctx.addIssue({ code: "custom", path: ["term_unit"], message: priceMessages.termUnit });
    if (hasUnit && !hasAmount)
      ctx.addIssue({ code: "custom", path: ["term_amount"], message: priceMessages.termAmount });
  }, whenAnObject);
export type PriceInput = z.output<typeof priceInput>;

const civilDate = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .refine((v) => v === "" || isCivilDate(v), priceMessages.date);

/**
 * POST /api/prices/{id}/pro-rata: the member's start date and the billing date (Auckland calendar
 * dates). `link` is a private price link's token, for a member quoting a private price.
 */
export const proRataRequest = z.object({
  start_date: civilDate,
  billing_date: civilDate,
  link: z.string().trim().max(200).nullish(),
});
export type ProRataRequest = z.output<typeof proRataRequest>;

export const privateLinkInput = z.object({ age_bypass: z.boolean().default(false) });

export const priceListQuery = z.object({
  include_archived: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
});
