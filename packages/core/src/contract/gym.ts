import { z } from "zod";
import { BASIS_POINTS_PER_UNIT } from "../billing/money";
import { nzBankAccountProblem, parseNzBankAccount } from "./bank-account";
import { messages, requiredText } from "./fields";
import { maskedSecretSchema, reference } from "./http";
import { requiredWholeNumber } from "./organisation";

export const BANK_ACCOUNT_INVALID = "The value is not a valid New Zealand bank account number";

const optionalOverride = (max: number) =>
  z.preprocess((v) => (v === "" ? null : v), requiredWholeNumber(0, max).nullable().optional());

/** PUT /api/gyms/{id}. Overrides left null use the organisation's setting. */
export const gymInput = z
  .object({
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
  })
  .meta({
    id: "GymInput",
    example: {
      name: "Ponsonby",
      price_change_notification_reply_to: null,
      break_fee_basis_points: null,
      card_surcharge_basis_points: null,
      card_surcharge_fixed_cents: null,
    },
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
  }))
  .meta({
    id: "DestinationAccountInput",
    example: {
      name: "Harbour Fitness Ltd",
      bank_account_number: "01-0902-0068389-00",
      bank_account_number_confirmation: "01-0902-0068389-00",
    },
  });

export const tracksVisitsInput = z
  .object({ tracks_visits: z.boolean({ error: messages.required }) })
  .meta({ id: "TracksVisitsInput", example: { tracks_visits: true } });

/** A secret field on an edit form: blank keeps the stored one. */
const keepOrReplaceSecret = z
  .string()
  .trim()
  .max(200, "The maximum length allowed is 200 characters")
  .nullish()
  .transform((v) => v || null);

export const branchConfigInput = z
  .object({
    branch_app_id: requiredText(100),
    branch_key: requiredText(200).pipe(
      z.string().regex(/^key_(live|test)_\w+$/, "A Branch key starts with key_live_ or key_test_"),
    ),
    branch_secret: keepOrReplaceSecret,
  })
  .meta({
    id: "BranchConfigInput",
    example: {
      branch_app_id: "1234567890",
      branch_key: "key_test_abc123",
      branch_secret: "secret_test_abc123",
    },
  });

export const akahuConfigInput = z
  .object({
    akahu_app_token: requiredText(200).pipe(
      z.string().startsWith("app_token_", "An Akahu app token starts with app_token_"),
    ),
    akahu_app_secret: keepOrReplaceSecret,
  })
  .meta({
    id: "AkahuConfigInput",
    example: { akahu_app_token: "app_token_abc123", akahu_app_secret: "abc123" },
  });

export const linkPlaceInput = z
  .object({
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
  })
  .meta({ id: "LinkPlaceInput", example: { place_id: null, doors: [] } });

export const stripeExchangeInput = z
  .object({
    code: requiredText(500),
    state: requiredText(2000),
  })
  .meta({ id: "StripeExchangeInput", example: { code: "ac_123", state: "signed-state" } });

export const LOGO_TYPES = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" } as const;
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;

/** GET /api/akahu/auth-url. */
export const akahuAuthUrlQuery = z.object({
  gym_id: z.string().trim().max(64).optional(),
  redirect_uri: z.string().trim().max(500).optional(),
  email: z.string().trim().max(254).optional(),
});

/** POST /api/akahu/exchange. */
export const akahuExchangeInput = z
  .object({
    code: requiredText(500),
    state: requiredText(2000),
  })
  .meta({ id: "AkahuExchangeInput", example: { code: "id_123", state: "signed-state" } });

// ---- Answers -----------------------------------------------------------------------------------

export const gymRoles = ["admin", "personal_trainer"] as const;
export const gymRoleSchema = z.enum(gymRoles).nullable();
export type GymRole = z.output<typeof gymRoleSchema>;

/** GET /api/gyms: a gym the user can reach, with the counts. */
export const gymListItemSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    selected: z.boolean(),
    role: gymRoleSchema,
    staff_count: z.number().int(),
    members_count: z.number().int(),
  })
  .meta({ id: "GymListItem" });
export type GymListItem = z.output<typeof gymListItemSchema>;

/** A Kisi lock as a door of the gym, with whether its unlocks count as visits. */
export const doorSchema = z
  .object({
    id: z.string(),
    integration_type: z.literal("kisi"),
    integration: z.object({
      id: z.string(),
      name: z.string(),
      door_id: z.string(),
      tracks_visits: z.boolean(),
    }),
  })
  .meta({ id: "DoorIntegration" });
export type DoorIntegration = z.output<typeof doorSchema>;

/** A gym's settings as its admins see them: secrets masked, the account number masked. */
export const gymSchema = z
  .object({
    id: z.string(),
    uuid: z.string(),
    name: z.string(),
    selected: z.boolean(),
    role: gymRoleSchema,
    organisation: reference,
    logo: z.string().nullable(),
    created_at: z.string(),
    price_change_notification_reply_to: z.string().nullable(),
    destination_account: z
      .object({ id: z.string(), name: z.string(), bank_account_number: z.string() })
      .nullable(),
    stripe_id: z.string().nullable(),
    has_payment_account: z.boolean(),
    stripe_connected_at: z.string().nullable(),
    tracks_visits: z.boolean(),
    place: z.object({ id: z.string(), name: z.string(), place_id: z.string() }).nullable(),
    doors: z.array(doorSchema),
    branch_app_id: z.string().nullable(),
    branch_key: z.string().nullable(),
    branch_secret: maskedSecretSchema,
    akahu_app_token: z.string().nullable(),
    akahu_app_secret: maskedSecretSchema,
    break_fee_basis_points: z.number().int().nullable(),
    card_surcharge_basis_points: z.number().int().nullable(),
    card_surcharge_fixed_cents: z.number().int().nullable(),
    break_fee_percentage: z.string(),
    /** What applies: the gym's overrides, else the organisation's settings. */
    effective: z.object({
      break_fee_basis_points: z.number().int(),
      card_surcharge: z.object({ percentBasisPoints: z.number().int(), fixedCents: z.number().int() }),
    }),
    organisation_defaults: z.object({
      break_fee_basis_points: z.number().int(),
      card_surcharge_basis_points: z.number().int(),
      card_surcharge_fixed_cents: z.number().int(),
    }),
    staff_count: z.number().int(),
    members_count: z.number().int(),
  })
  .meta({ id: "Gym" });
export type Gym = z.output<typeof gymSchema>;

/** A Kisi place, with the gym it is linked to. */
export const accessPlaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    place_id: z.string(),
    gym_id: z.string().nullable(),
    gym_name: z.string().nullable(),
  })
  .meta({ id: "AccessPlace" });
export type AccessPlace = z.output<typeof accessPlaceSchema>;

export const akahuExchangeSchema = z
  .object({ connected: z.boolean(), gym_id: z.string() })
  .meta({ id: "AkahuConnected" });

export const akahuAccountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    formatted_account: z.string().nullable(),
    type: z.string(),
    status: z.string(),
    connection: z.string().nullable(),
  })
  .meta({ id: "AkahuAccount" });
export type AkahuAccount = z.output<typeof akahuAccountSchema>;
