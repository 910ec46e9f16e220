import type { z } from "zod";
import type { Actor } from "../auth/actor";
import { authorize, inOrganisation, policy } from "../auth/policy";
import type { OrganisationFrequency } from "../billing/frequency";
import type { SurchargeSettings } from "../billing/money";
import {
  type AccessControlIntegration,
  accessControlIntegrationInput,
  billingSettingsInput,
  type GraceUnit,
  gracePeriodInput,
  type OrganisationSettings as OrganisationSettingsView,
  offeringPermissionsInput,
  organisationInput,
  priceFrequenciesInput,
  termGracePeriodInput,
} from "../contract/organisation";
import { decryptSecret, encryptSecret, maskedSecret } from "../crypto/secrets";
import { db } from "../db/service";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { kisiProvider } from "../providers/kisi/index";
import { parse } from "../validation";
import { getOrganisation, type Organisation } from "./service";

/** The defaults of every organisation setting (docs/billing.md "Settings"). */
export const settingDefaults = {
  failed_payment_grace_period: 14,
  failed_payment_grace_period_unit: "days" as GraceUnit,
  term_membership_grace_period: 30,
  term_membership_grace_period_unit: "days" as GraceUnit,
  payment_retry_days: [1, 3, 5],
  cooling_off_days: 7,
  pause_day_credit_days: 30,
  card_surcharge_basis_points: 250,
  card_surcharge_fixed_cents: 30,
  break_fee_basis_points: 2500,
};

/** An organisation's settings with defaults filled in for records older than a setting. */
export function organisationSettings(org: Organisation) {
  return {
    offering_permissions: org.offering_permissions,
    price_frequencies: org.price_frequencies as OrganisationFrequency[],
    failed_payment_grace_period:
      org.failed_payment_grace_period ?? settingDefaults.failed_payment_grace_period,
    failed_payment_grace_period_unit: (org.failed_payment_grace_period_unit ?? "days") as GraceUnit,
    term_membership_grace_period:
      org.term_membership_grace_period ?? settingDefaults.term_membership_grace_period,
    term_membership_grace_period_unit: (org.term_membership_grace_period_unit ?? "days") as GraceUnit,
    payment_retry_days: org.payment_retry_days ?? settingDefaults.payment_retry_days,
    cooling_off_days: org.cooling_off_days ?? settingDefaults.cooling_off_days,
    pause_day_credit_days: org.pause_day_credit_days ?? settingDefaults.pause_day_credit_days,
    card_surcharge_basis_points:
      org.card_surcharge_basis_points ?? settingDefaults.card_surcharge_basis_points,
    card_surcharge_fixed_cents: org.card_surcharge_fixed_cents ?? settingDefaults.card_surcharge_fixed_cents,
    break_fee_basis_points: org.break_fee_basis_points ?? settingDefaults.break_fee_basis_points,
  };
}

export type OrganisationSettings = ReturnType<typeof organisationSettings>;

/** The surcharge a gym charges on card payments: its own override, else the organisation's. */
export function cardSurchargeFor(
  settings: Pick<OrganisationSettings, "card_surcharge_basis_points" | "card_surcharge_fixed_cents">,
  gym: { card_surcharge_basis_points?: number | null; card_surcharge_fixed_cents?: number | null },
): SurchargeSettings {
  return {
    percentBasisPoints: gym.card_surcharge_basis_points ?? settings.card_surcharge_basis_points,
    fixedCents: gym.card_surcharge_fixed_cents ?? settings.card_surcharge_fixed_cents,
  };
}

/** The break fee of a gym in basis points: its own override, else the organisation's. */
export function breakFeeFor(
  settings: Pick<OrganisationSettings, "break_fee_basis_points">,
  gym: { break_fee_basis_points?: number | null },
) {
  return gym.break_fee_basis_points ?? settings.break_fee_basis_points;
}

export function shapeOrganisation(org: Organisation): OrganisationSettingsView {
  return {
    id: org.organisation_id,
    name: org.name,
    multi_gym: org.multi_gym,
    ...organisationSettings(org),
    access_control_integration: org.access_control
      ? { id: org.access_control.integration_id, integration_type: org.access_control.integration_type }
      : null,
  };
}

/** Staff of the organisation may read its settings (offering forms need the permissions). */
export async function readOrganisation(actor: Actor, organisationId: string) {
  inOrganisation(actor, organisationId);
  authorize(policy.useStaffArea(actor));
  return shapeOrganisation(await getOrganisation(organisationId));
}

async function change(actor: Actor, organisationId: string, values: () => Record<string, unknown>) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may change organisation settings.");
  const set = values();
  await getOrganisation(organisationId);
  const { data } = await db()
    .entities.organisation.patch({ organisation_id: organisationId })
    .set(set)
    .go({ response: "all_new" });
  return shapeOrganisation(data as Organisation);
}

export const updateOrganisation = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => parse(organisationInput, input));
export const updateGracePeriod = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => parse(gracePeriodInput, input) as z.output<typeof gracePeriodInput>);
export const updateTermGracePeriod = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => parse(termGracePeriodInput, input) as z.output<typeof termGracePeriodInput>);
export const updateOfferingPermissions = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => ({ offering_permissions: parse(offeringPermissionsInput, input) }));
export const updatePriceFrequencies = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => parse(priceFrequenciesInput, input));
export const updateBillingSettings = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => parse(billingSettingsInput, input));

// ---- Access control (Kisi) ---------------------------------------------------------------------

const kisiKeyContext = (organisationId: string) => `organisation:${organisationId}:kisi_api_key`;

function shapeIntegration(org: Organisation): AccessControlIntegration | null {
  const ac = org.access_control;
  if (!ac) return null;
  return {
    id: ac.integration_id,
    integration_type: ac.integration_type,
    api_key: maskedSecret(ac.api_key_enc, kisiKeyContext(org.organisation_id)),
    connected_at: ac.connected_at,
  };
}

export async function getAccessControlIntegration(actor: Actor, organisationId: string) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor));
  return shapeIntegration(await getOrganisation(organisationId));
}

/** Connects (or re-keys) Kisi: the key is checked against Kisi before it is stored, encrypted. */
export async function connectAccessControl(actor: Actor, organisationId: string, input: unknown) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may connect door access.");
  const { api_key } = parse(accessControlIntegrationInput, input);
  const org = await getOrganisation(organisationId);
  await kisiProvider().listPlaces(api_key);
  const { data } = await db()
    .entities.organisation.patch({ organisation_id: organisationId })
    .set({
      access_control: {
        integration_id: org.access_control?.integration_id ?? newId(),
        integration_type: "kisi",
        api_key_enc: encryptSecret(api_key, kisiKeyContext(organisationId)),
        connected_at: new Date().toISOString(),
      },
    })
    .go({ response: "all_new" });
  return shapeIntegration(data as Organisation);
}

/** The organisation's Kisi key, for calls to Kisi; 409 when door access is not connected. */
export async function kisiKeyOf(organisationId: string): Promise<string> {
  const org = await getOrganisation(organisationId);
  if (!org.access_control)
    throw new ConflictError(
      "Door access is not connected. Connect Kisi in the organisation's settings first.",
      "access_control_not_connected",
    );
  return decryptSecret(org.access_control.api_key_enc, kisiKeyContext(organisationId));
}
