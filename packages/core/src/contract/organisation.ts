import { z } from "zod";
import {
  frequencyLabel,
  organisationFrequencies,
  organisationToBillingFrequency,
} from "../billing/frequency";
import { formatIrdNumber, isValidIrdNumber } from "../billing/gst";
import { BASIS_POINTS_PER_UNIT } from "../billing/money";
import { messages, optionalText, requiredText } from "./fields";
import { maskedSecretSchema } from "./http";

/** Grace period units (docs/billing.md "Settings"): days, weeks or calendar months. */
export const graceUnits = ["days", "weeks", "months"] as const;
export type GraceUnit = (typeof graceUnits)[number];
export const graceUnitOptions = graceUnits.map((value) => ({
  value,
  label: value[0].toUpperCase() + value.slice(1),
}));

/** The organisation's price frequency settings as the settings page offers them. */
export const organisationFrequencyOptions = organisationFrequencies.map((value) => ({
  value,
  label: value === "six_monthly" ? "Six-monthly" : frequencyLabel[organisationToBillingFrequency[value]],
}));

/** The longest grace period per unit: one year. */
export const graceMaximum: Record<GraceUnit, number> = { days: 365, weeks: 52, months: 12 };

const blankToUndefined = (value: unknown) =>
  value === "" || value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/** A whole number from JSON or a form ("14" works); blank is "Value is required". */
export const requiredWholeNumber = (min: number, max: number) =>
  z.preprocess(
    (value) => {
      const v = blankToUndefined(value);
      return typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
    },
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? messages.required : "The value must be a whole number",
      })
      .int("The value must be a whole number")
      .min(min, `The minimum value allowed is ${min}`)
      .max(max, messages.max(max)),
  );

const requiredChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    blankToUndefined,
    z.enum(values, {
      error: (issue) => (issue.input === undefined ? messages.required : "Choose one of the options"),
    }),
  );

const requiredBoolean = () => z.boolean({ error: messages.required });

function gracePeriod<V extends string, U extends string>(valueKey: V, unitKey: U) {
  return z
    .object({
      [valueKey]: requiredWholeNumber(0, 365),
      [unitKey]: requiredChoice(graceUnits),
    } as {
      [K in V | U]: K extends V
        ? ReturnType<typeof requiredWholeNumber>
        : ReturnType<typeof requiredChoice<typeof graceUnits>>;
    })
    .superRefine((input, ctx) => {
      const value = (input as Record<string, unknown>)[valueKey] as number;
      const unit = (input as Record<string, unknown>)[unitKey] as GraceUnit;
      if (value > graceMaximum[unit])
        ctx.addIssue({ code: "custom", path: [valueKey], message: messages.max(graceMaximum[unit]) });
    });
}

export const organisationInput = z
  .object({ name: requiredText(120) })
  .meta({ id: "OrganisationInput", example: { name: "Harbour Fitness" } });

export const gracePeriodInput = gracePeriod(
  "failed_payment_grace_period",
  "failed_payment_grace_period_unit",
).meta({
  id: "GracePeriodInput",
  example: { failed_payment_grace_period: 14, failed_payment_grace_period_unit: "days" },
});
export const termGracePeriodInput = gracePeriod(
  "term_membership_grace_period",
  "term_membership_grace_period_unit",
).meta({
  id: "TermGracePeriodInput",
  example: { term_membership_grace_period: 30, term_membership_grace_period_unit: "days" },
});

export const offeringPermissionsInput = z
  .object({
    enable_offerings: requiredBoolean(),
    non_stop: requiredBoolean(),
    limited_access: requiredBoolean(),
  })
  .meta({
    id: "OfferingPermissionsInput",
    example: { enable_offerings: true, non_stop: true, limited_access: true },
  });

export const priceFrequenciesInput = z
  .object({
    price_frequencies: z
      .array(z.enum(organisationFrequencies, { error: "Choose one of the listed frequencies" }), {
        error: messages.required,
      })
      .min(1, "Select at least one frequency")
      .transform((list) => organisationFrequencies.filter((f) => list.includes(f))),
  })
  .meta({ id: "PriceFrequenciesInput", example: { price_frequencies: ["weekly", "monthly"] } });

export const billingSettingsInput = z
  .object({
    payment_retry_days: z
      .array(requiredWholeNumber(1, 60), { error: messages.required })
      .max(10, "At most 10 retries")
      .refine(
        (days) => days.every((day, i) => i === 0 || day > days[i - 1]),
        "Each retry must come after the one before",
      ),
    cooling_off_days: requiredWholeNumber(0, 60),
    pause_day_credit_days: requiredWholeNumber(0, 365),
    card_surcharge_basis_points: requiredWholeNumber(0, BASIS_POINTS_PER_UNIT),
    card_surcharge_fixed_cents: requiredWholeNumber(0, 10_000),
    break_fee_basis_points: requiredWholeNumber(0, BASIS_POINTS_PER_UNIT),
  })
  .meta({
    id: "BillingSettingsInput",
    example: {
      payment_retry_days: [1, 3, 5],
      cooling_off_days: 7,
      pause_day_credit_days: 30,
      card_surcharge_basis_points: 250,
      card_surcharge_fixed_cents: 30,
      break_fee_basis_points: 2500,
    },
  });

export const accessControlIntegrationInput = z
  .object({
    integration_type: z.literal("kisi", { error: "Kisi is the only supported access-control system" }),
    api_key: requiredText(200),
  })
  .meta({ id: "AccessControlInput", example: { integration_type: "kisi", api_key: "kisi-api-key" } });

// ---- Answers -----------------------------------------------------------------------------------

const graceUnit = z.enum(graceUnits);

/** GET /api/organisations/{id} and each settings PUT: the settings, defaults filled in. */
/** The message for a GST number whose check digit is wrong. */
export const GST_NUMBER_MESSAGE = "Enter a valid GST number (the IRD number, e.g. 49-091-850)";

/** How the organisation talks to its members (docs/communications.md). */
export const communicationsSettingsInput = z
  .object({
    /** The registered name on receipts (blank: the organisation's name). */
    legal_name: optionalText(200),
    /** The GST (IRD) number; blank when not registered for GST (receipts then show no GST). */
    gst_number: z
      .preprocess(blankToUndefined, z.string().trim().optional())
      .refine((value) => value === undefined || isValidIrdNumber(value), GST_NUMBER_MESSAGE)
      .transform((value) => (value ? formatIrdNumber(value) : null)),
    /** Days before each charge the payment reminder is sent; 0 sends none. */
    payment_reminder_days: requiredWholeNumber(0, 30),
  })
  .meta({
    id: "CommunicationsSettingsInput",
    example: { legal_name: "Harbour Fitness Limited", gst_number: "49-091-850", payment_reminder_days: 3 },
  });

export const organisationSettingsSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    multi_gym: z.boolean(),
    offering_permissions: z.object({
      enable_offerings: z.boolean(),
      non_stop: z.boolean(),
      limited_access: z.boolean(),
    }),
    price_frequencies: z.array(z.enum(organisationFrequencies)),
    failed_payment_grace_period: z.number().int(),
    failed_payment_grace_period_unit: graceUnit,
    term_membership_grace_period: z.number().int(),
    term_membership_grace_period_unit: graceUnit,
    payment_retry_days: z.array(z.number().int()),
    cooling_off_days: z.number().int(),
    pause_day_credit_days: z.number().int(),
    card_surcharge_basis_points: z.number().int(),
    card_surcharge_fixed_cents: z.number().int(),
    break_fee_basis_points: z.number().int(),
    legal_name: z.string().nullable(),
    gst_number: z.string().nullable(),
    payment_reminder_days: z.number().int(),
    access_control_integration: z.object({ id: z.string(), integration_type: z.literal("kisi") }).nullable(),
  })
  .meta({ id: "OrganisationSettings" });
export type OrganisationSettings = z.output<typeof organisationSettingsSchema>;

/** The organisation's door access (Kisi), key masked. */
export const accessControlIntegrationSchema = z
  .object({
    id: z.string(),
    integration_type: z.literal("kisi"),
    api_key: maskedSecretSchema,
    connected_at: z.string(),
    webhook_secret_set_at: z.string().nullable(),
    /** Only in the answer that made the secret (first connection, rotation): shown once. */
    webhook_url: z.string().optional(),
  })
  .meta({ id: "AccessControlIntegration" });
export type AccessControlIntegration = z.output<typeof accessControlIntegrationSchema>;
