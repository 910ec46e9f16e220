import type { z } from "zod";
import type { Actor } from "../auth/actor";
import { authorize, inOrganisation, policy } from "../auth/policy";
import { newToken, tokenHash } from "../auth/tokens";
import type { OrganisationFrequency } from "../billing/frequency";
import type { SurchargeSettings } from "../billing/money";
import { config } from "../config";
import {
  type AccessControlIntegration,
  accessControlIntegrationInput,
  billingSettingsInput,
  communicationsSettingsInput,
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
import { linkProviderId, unlinkProviderId } from "../providers/links";
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
  payment_reminder_days: 3,
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
    legal_name: org.legal_name ?? null,
    gst_number: org.gst_number ?? null,
    payment_reminder_days: org.payment_reminder_days ?? settingDefaults.payment_reminder_days,
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
  const all = values();
  // A null value removes the setting (e.g. a GST number cleared: not registered).
  const set = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null));
  const remove = Object.keys(all).filter((key) => all[key] === null);
  await getOrganisation(organisationId);
  const { data } = await db()
    .entities.organisation.patch({ organisation_id: organisationId })
    .set(set)
    .remove(remove as never)
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
/** Receipts' legal name and GST number, and the payment reminder's days (null removes a value). */
export const updateCommunicationsSettings = (actor: Actor, id: string, input: unknown) =>
  change(actor, id, () => parse(communicationsSettingsInput, input));

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
    webhook_secret_set_at: ac.webhook_secret_set_at ?? null,
  };
}

/** The address Kisi posts this organisation's events to; its last segment is the secret. */
export const kisiWebhookUrl = (secret: string) =>
  `${config.staffUrl.replace(/\/+$/, "")}/api/webhooks/kisi/${secret}`;
export const kisiWebhookSecretHash = (secret: string) => tokenHash(secret);

/**
 * A new webhook secret for the organisation: stored only as a hash (with a link from the hash to
 * the organisation, so an event finds its organisation in one lookup); the old one stops working.
 * Returns the secret, to be shown once.
 */
async function newWebhookSecret(organisationId: string, previousHash: string | undefined) {
  const secret = newToken();
  const hash = kisiWebhookSecretHash(secret);
  await linkProviderId("kisi_webhook", hash, { organisation_id: organisationId });
  if (previousHash && previousHash !== hash) await unlinkProviderId("kisi_webhook", previousHash);
  return { secret, hash, set_at: new Date().toISOString() };
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
  // The first connection makes the webhook secret (shown in this answer only); a re-key keeps it.
  const previous = org.access_control;
  const fresh = previous?.webhook_secret_hash ? null : await newWebhookSecret(organisationId, undefined);
  const { data } = await db()
    .entities.organisation.patch({ organisation_id: organisationId })
    .set({
      access_control: {
        integration_id: previous?.integration_id ?? newId(),
        integration_type: "kisi",
        api_key_enc: encryptSecret(api_key, kisiKeyContext(organisationId)),
        connected_at: new Date().toISOString(),
        webhook_secret_hash: fresh?.hash ?? previous?.webhook_secret_hash,
        webhook_secret_set_at: fresh?.set_at ?? previous?.webhook_secret_set_at,
      },
    })
    .go({ response: "all_new" });
  const shaped = shapeIntegration(data as Organisation)!;
  return fresh ? { ...shaped, webhook_url: kisiWebhookUrl(fresh.secret) } : shaped;
}

/**
 * POST /api/organisations/{id}/access-control/webhook-secret: replaces the Kisi webhook secret
 * (the old URL stops working at once) and returns the new URL, shown once.
 */
export async function rotateKisiWebhookSecret(actor: Actor, organisationId: string) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may change door access.");
  const org = await getOrganisation(organisationId);
  if (!org.access_control) throw notConnected();
  const fresh = await newWebhookSecret(organisationId, org.access_control.webhook_secret_hash);
  const { data } = await db()
    .entities.organisation.patch({ organisation_id: organisationId })
    .set({
      access_control: {
        ...org.access_control,
        webhook_secret_hash: fresh.hash,
        webhook_secret_set_at: fresh.set_at,
      },
    })
    .go({ response: "all_new" });
  return { ...shapeIntegration(data as Organisation)!, webhook_url: kisiWebhookUrl(fresh.secret) };
}

const notConnected = () =>
  new ConflictError(
    "Door access is not connected. Connect Kisi in the organisation's settings first.",
    "access_control_not_connected",
  );

/** The organisation's Kisi key, for calls to Kisi; 409 when door access is not connected. */
export async function kisiKeyOf(organisationId: string): Promise<string> {
  const org = await getOrganisation(organisationId);
  if (!org.access_control) throw notConnected();
  return decryptSecret(org.access_control.api_key_enc, kisiKeyContext(organisationId));
}
