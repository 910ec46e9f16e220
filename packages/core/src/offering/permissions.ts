/**
 * What an organisation's settings allow to be offered (spec 000 §3, 001 §3): its offering
 * permissions decide the offering types, its enabled price frequencies the billing frequencies
 * of new prices. Pure; the services enforce these on the server (docs/billing.md "Prices and
 * offerings").
 */
import {
  type BillingFrequency,
  billingFrequencies,
  frequencyLabel,
  isFrequencyEnabled,
  type OrganisationFrequency,
  organisationFrequencies,
} from "../billing/index";
import { type OfferingType, offeringTypeLabel, offeringTypes } from "../contract/offering";

export interface OfferingPermissions {
  enable_offerings: boolean;
  non_stop: boolean;
  limited_access: boolean;
}

/** Offering types the organisation may offer: 24/7 needs non_stop, Limited Hours limited_access; none when offerings are off. */
export function allowedOfferingTypes(permissions: OfferingPermissions): OfferingType[] {
  if (!permissions.enable_offerings) return [];
  return offeringTypes.filter((type) =>
    type === "24_7" ? permissions.non_stop : permissions.limited_access,
  );
}

export function isOfferingTypeAllowed(permissions: OfferingPermissions, type: OfferingType): boolean {
  return allowedOfferingTypes(permissions).includes(type);
}

/** The message shown on `type` when the organisation does not allow it. */
export function typeNotAllowedMessage(type: OfferingType): string {
  return `${offeringTypeLabel[type]} offerings are not enabled for your organisation`;
}

/** The organisation's stored frequency names, keeping only names the product knows. */
export function enabledOrganisationFrequencies(stored: readonly string[]): OrganisationFrequency[] {
  return organisationFrequencies.filter((name) => stored.includes(name));
}

/** Billing frequencies a new price may use, in display order (one_off, PIF, is always allowed). */
export function allowedBillingFrequencies(stored: readonly string[]): BillingFrequency[] {
  const enabled = enabledOrganisationFrequencies(stored);
  return billingFrequencies.filter((frequency) => isFrequencyEnabled(enabled, frequency));
}

/** The message shown on `billing_frequency` when the organisation has not enabled it. */
export function frequencyNotAllowedMessage(frequency: BillingFrequency): string {
  return `${frequencyLabel[frequency]} prices are not enabled for your organisation`;
}
