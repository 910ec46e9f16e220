import { z } from "zod";
import { organisationFrequencies } from "../billing/frequency";
import { BASIS_POINTS_PER_UNIT } from "../billing/money";
import { messages, requiredText } from "../validation";

/** Grace period units (docs/billing.md "Settings"): days, weeks or calendar months. */
export const graceUnits = ["days", "weeks", "months"] as const;
export type GraceUnit = (typeof graceUnits)[number];
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

export const organisationInput = z.object({ name: requiredText(120) });

export const gracePeriodInput = gracePeriod(
  "failed_payment_grace_period",
  "failed_payment_grace_period_unit",
);
export const termGracePeriodInput = gracePeriod(
  "term_membership_grace_period",
  "term_membership_grace_period_unit",
);

export const offeringPermissionsInput = z.object({
  enable_offerings: requiredBoolean(),
  non_stop: requiredBoolean(),
  limited_access: requiredBoolean(),
});

export const priceFrequenciesInput = z.object({
  price_frequencies: z
    .array(z.enum(organisationFrequencies, { error: "Choose one of the listed frequencies" }), {
      error: messages.required,
    })
    .min(1, "Select at least one frequency")
    .transform((list) => organisationFrequencies.filter((f) => list.includes(f))),
});

export const billingSettingsInput = z.object({
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
});

export const accessControlIntegrationInput = z.object({
  integration_type: z.literal("kisi", { error: "Kisi is the only supported access-control system" }),
  api_key: requiredText(200),
});
