/** Billing frequencies: names, labels, display order, period lengths and organisation settings. */
import { z } from "zod";

/** Every price billing frequency, in the spec's display order (one_off, shown "PIF", last). */
export const billingFrequencies = [
  "daily",
  "weekly",
  "fortnightly",
  "monthly",
  "bi_monthly",
  "quarterly",
  "twice_yearly",
  "yearly",
  "one_off",
] as const;

export const billingFrequencySchema = z.enum(billingFrequencies);
export type BillingFrequency = z.infer<typeof billingFrequencySchema>;

/** Frequencies that repeat; one_off (PIF) is a single payment and has no repeating period. */
export type RecurringFrequency = Exclude<BillingFrequency, "one_off">;
export const recurringFrequencies = billingFrequencies.filter(
  (f): f is RecurringFrequency => f !== "one_off",
) as readonly RecurringFrequency[];

export function isRecurringFrequency(frequency: BillingFrequency): frequency is RecurringFrequency {
  return frequency !== "one_off";
}

export const frequencyLabel: Readonly<Record<BillingFrequency, string>> = {
  daily: "Daily",
  weekly: "Weekly",
  fortnightly: "Fortnightly",
  monthly: "Monthly",
  bi_monthly: "Bi-monthly",
  quarterly: "Quarterly",
  twice_yearly: "Twice-yearly",
  yearly: "Yearly",
  one_off: "PIF",
};

/** Length of one period: a whole number of days, or of calendar months (anchor day kept, clamped). */
export type PeriodLength = { unit: "days"; count: number } | { unit: "months"; count: number };

export const periodLength: Readonly<Record<RecurringFrequency, PeriodLength>> = {
  daily: { unit: "days", count: 1 },
  weekly: { unit: "days", count: 7 },
  fortnightly: { unit: "days", count: 14 },
  monthly: { unit: "months", count: 1 },
  bi_monthly: { unit: "months", count: 2 },
  quarterly: { unit: "months", count: 3 },
  twice_yearly: { unit: "months", count: 6 },
  yearly: { unit: "months", count: 12 },
};

const displayIndex = new Map<string, number>(billingFrequencies.map((f, i) => [f, i]));

/** A new array in display order (daily ... yearly, then one_off). Does not modify the input. */
export function sortFrequencies<T extends BillingFrequency>(frequencies: readonly T[]): T[] {
  return [...frequencies].sort((a, b) => (displayIndex.get(a) ?? 0) - (displayIndex.get(b) ?? 0));
}

// ---- Organisation settings --------------------------------------------------------------------

/** Price frequencies an organisation may enable (spec §3), in display order. */
export const organisationFrequencies = [
  "weekly",
  "fortnightly",
  "monthly",
  "quarterly",
  "six_monthly",
  "yearly",
] as const;

export const organisationFrequencySchema = z.enum(organisationFrequencies);
export type OrganisationFrequency = z.infer<typeof organisationFrequencySchema>;

/** Organisation setting name -> price billing frequency (only six_monthly is renamed). */
export const organisationToBillingFrequency: Readonly<Record<OrganisationFrequency, RecurringFrequency>> = {
  weekly: "weekly",
  fortnightly: "fortnightly",
  monthly: "monthly",
  quarterly: "quarterly",
  six_monthly: "twice_yearly",
  yearly: "yearly",
};

/** Price billing frequency -> organisation setting name; null for daily, bi_monthly and one_off. */
export function billingToOrganisationFrequency(frequency: BillingFrequency): OrganisationFrequency | null {
  for (const org of organisationFrequencies) {
    if (organisationToBillingFrequency[org] === frequency) return org;
  }
  return null;
}

/**
 * May a new price with this billing frequency be offered, given the organisation's enabled list?
 * - one_off (PIF) is always allowed: it is not a recurring frequency, so no setting governs it.
 * - daily and bi_monthly have no organisation setting, so no organisation can enable them: false.
 *   (Existing prices with those frequencies keep billing; this gates choosing/creating prices.)
 * - the rest: enabled when their organisation name (six_monthly for twice_yearly) is in the list.
 */
export function isFrequencyEnabled(
  enabled: readonly OrganisationFrequency[],
  frequency: BillingFrequency,
): boolean {
  if (frequency === "one_off") return true;
  const org = billingToOrganisationFrequency(frequency);
  return org !== null && enabled.includes(org);
}
