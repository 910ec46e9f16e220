import { z } from "zod";
import { BASIS_POINTS_PER_UNIT } from "../billing/money";
import { requiredWholeNumber } from "../organisation/schemas";
import { messages, requiredText } from "../validation";
import { nzBankAccountProblem, parseNzBankAccount } from "./bank-account";

export const BANK_ACCOUNT_INVALID = "The value is not a valid New Zealand bank account number";

const optionalOverride = (max: number) =>
  z.preprocess((v) => (v === "" ? null : v), requiredWholeNumber(0, max).nullable().optional());

/** PUT /api/gyms/{id}. Overrides left null use the organisation's setting. */
export const gymInput = z.object({
  name: requiredText(120),
  price_change_notification_reply_to: z
    .string()
    .trim()
    .max(254, "The maximum length allowed is 254 characters")
    .nullish()
    .transform((v) => v || null)
    .pipe(z.email({ error: messages.email }).nullable()),
  break_fee_basis_points: optionalOverride(BASIS_POINTS_PER_UNIT),
  card_surcharge_basis_points: optionalOverride(BASIS_POINTS_PER_UNIT),
  card_surcharge_fixed_cents: optionalOverride(10_000),
});

/** PUT /api/gyms/{gymId}/destination-accounts/{accountId}: the number twice, equal, and a valid NZ number. */
export const destinationAccountInput = z
  .object({
    name: requiredText(120),
    bank_account_number: z
      .string({ error: messages.required })
      .trim()
      .min(1, messages.required)
      .max(40, "The maximum length allowed is 40 characters"),
    bank_account_number_confirmation: z
      .string({ error: messages.required })
      .trim()
      .min(1, messages.required)
      .max(40, "The maximum length allowed is 40 characters"),
  })
  .superRefine((input, ctx) => {
    if (!input.bank_account_number || !input.bank_account_number_confirmation) return;
    if (nzBankAccountProblem(input.bank_account_number)) {
      ctx.addIssue({ code: "custom", path: ["bank_account_number"], message: BANK_ACCOUNT_INVALID });
    }
    const normal = (v: string) => parseNzBankAccount(v)?.formatted ?? v.replace(/\s+/g, "");
    if (normal(input.bank_account_number) !== normal(input.bank_account_number_confirmation)) {
      ctx.addIssue({ code: "custom", path: ["bank_account_number_confirmation"], message: messages.equal });
    }
  })
  .transform((input) => ({
    name: input.name,
    bank_account_number: parseNzBankAccount(input.bank_account_number)!.formatted,
  }));

export const tracksVisitsInput = z.object({ tracks_visits: z.boolean({ error: messages.required }) });

/** A secret field on an edit form: blank keeps the stored one. */
const keepOrReplaceSecret = z
  .string()
  .trim()
  .max(200, "The maximum length allowed is 200 characters")
  .nullish()
  .transform((v) => v || null);

export const branchConfigInput = z.object({
  branch_app_id: requiredText(100),
  branch_key: requiredText(200).pipe(
    z.string().regex(/^key_(live|test)_\w+$/, "A Branch key starts with key_live_ or key_test_"),
  ),
  branch_secret: keepOrReplaceSecret,
});

export const akahuConfigInput = z.object({
  akahu_app_token: requiredText(200).pipe(
    z.string().startsWith("app_token_", "An Akahu app token starts with app_token_"),
  ),
  akahu_app_secret: keepOrReplaceSecret,
});

export const linkPlaceInput = z.object({
  place_id: z
    .union([z.string().trim().max(64, "The maximum length allowed is 64 characters"), z.number().int()])
    .nullable()
    .transform((v) => (v === null || v === "" ? null : String(v))),
  doors: z
    .array(
      z.object({
        id: z
          .union([
            z.string().trim().min(1).max(64, "The maximum length allowed is 64 characters"),
            z.number().int(),
          ])
          .transform(String),
        tracks_visits: z.boolean(),
      }),
    )
    .max(200, "At most 200 doors")
    .optional()
    .default([]),
});

export const stripeExchangeInput = z.object({
  code: requiredText(500),
  state: requiredText(2000),
});

export const LOGO_TYPES = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" } as const;
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
