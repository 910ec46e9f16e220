/**
 * Offerings: what a gym organisation sells (spec 001 §3, §4, §5, §7). Every function takes the
 * Actor and decides access here: any staff member reads; organisation and gym admins
 * (`policy.manageOfferings`) create and change, a gym admin only offerings limited to gyms they
 * administer (`policy.manageOffering`, gym scope); the organisation's offering permissions decide
 * what may be offered. Rules and status codes: docs/billing.md "Prices and offerings".
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inGym, policy } from "../auth/policy";
import { frequencyLabel, termUnits } from "../billing/index";
import {
  type Offering,
  type OfferingInput,
  type OfferingOptions,
  type OfferingStatus,
  offeringInput,
  offeringTypeLabel,
} from "../contract/offering";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { listOfferingPriceRecords, listPriceRecords } from "../price/store";
import { parse } from "../validation";
import {
  assertOfferingsEnabled,
  authorizeOffering,
  type OrganisationContext,
  organisationContext,
  presentPrices,
} from "./context";
import {
  allowedBillingFrequencies,
  allowedOfferingTypes,
  isOfferingTypeAllowed,
  typeNotAllowedMessage,
} from "./permissions";
import { type OfferingRecord, presentOffering } from "./present";
import { findOffering, listOfferingRecords } from "./store";

export const offeringMessages = {
  hasMembers: "This offering has members, so it cannot be deleted. Archive it instead.",
  unknownGym: "Select gyms of your organisation",
} as const;

/** The gym scope of an offering input as it would be stored. */
const scopeOf = (input: OfferingInput) => ({
  all_gyms_access: input.all_gyms_access,
  gym_ids: input.all_gyms_access ? [] : input.gyms,
});

function byName(a: Offering, b: Offering) {
  return a.name.localeCompare(b.name, "en-NZ", { sensitivity: "base" }) || a.id.localeCompare(b.id);
}

/** The offering of the actor's organisation, or 404. */
export async function offeringOf(organisationId: string, offeringId: string): Promise<OfferingRecord> {
  const offering = await findOffering(organisationId, offeringId);
  if (!offering) throw new NotFoundError("offering");
  return offering;
}

async function present(offering: OfferingRecord, context: OrganisationContext, withLinks = true) {
  const prices = await listOfferingPriceRecords(offering.organisation_id, offering.offering_id);
  return presentOffering(offering, {
    prices: presentPrices(prices, offering, context, withLinks),
    gyms: context.gyms,
  });
}

/**
 * GET /api/offerings: the organisation's offerings with their prices, by name. `status` picks
 * active (not archived), archived, or all (the default). Two queries: offerings and prices.
 */
export async function listOfferings(actor: Actor, options: { status?: OfferingStatus } = {}) {
  authorize(policy.useStaffArea(actor));
  const organisationId = currentOrganisation(actor);
  const [context, offerings, prices] = await Promise.all([
    organisationContext(organisationId),
    listOfferingRecords(organisationId),
    listPriceRecords(organisationId),
  ]);
  const status = options.status ?? "all";
  return offerings
    .filter((o) => status === "all" || (status === "archived" ? Boolean(o.archived_at) : !o.archived_at))
    .map((offering) =>
      presentOffering(offering, {
        prices: presentPrices(
          prices.filter((p) => p.offering_id === offering.offering_id),
          offering,
          context,
          true,
        ),
        gyms: context.gyms,
      }),
    )
    .sort(byName);
}

/**
 * GET /api/gyms/{gym_id}/offerings: what is offered at a gym the actor can reach: offerings not
 * archived, for all gyms or including this one, with their prices not archived. Members (the
 * join site) see only public prices and only offerings that have one; staff also see private
 * prices and their links.
 */
export async function listGymOfferings(actor: Actor, gymId: string) {
  const organisationId = currentOrganisation(actor);
  inGym(actor, gymId);
  const [context, offerings, prices] = await Promise.all([
    organisationContext(organisationId),
    listOfferingRecords(organisationId),
    listPriceRecords(organisationId),
  ]);
  const staff = policy.useStaffArea(actor);
  return offerings
    .filter((o) => !o.archived_at && (o.all_gyms_access || o.gym_ids.includes(gymId)))
    .map((offering) => {
      const offered = prices.filter(
        (p) => p.offering_id === offering.offering_id && !p.archived_at && (staff || !p.private),
      );
      return presentOffering(offering, {
        prices: presentPrices(offered, offering, context, staff),
        gyms: context.gyms,
      });
    })
    .filter((offering) => staff || offering.prices.length > 0)
    .sort(byName);
}

/** GET /api/offerings/{id}: one offering with all its prices (archived ones last). */
export async function getOffering(actor: Actor, offeringId: string) {
  authorize(policy.useStaffArea(actor));
  const organisationId = currentOrganisation(actor);
  const [context, offering] = await Promise.all([
    organisationContext(organisationId),
    offeringOf(organisationId, offeringId),
  ]);
  return present(offering, context);
}

/**
 * What the offering and price forms may offer this organisation (GET /api/offering-options):
 * the types its offering permissions allow, the billing frequencies it enabled (PIF always),
 * the term units, its gyms, and whether the actor may change offerings at all.
 */
export async function offeringOptions(actor: Actor): Promise<OfferingOptions> {
  authorize(policy.useStaffArea(actor));
  const context = await organisationContext(currentOrganisation(actor));
  const permissions = context.organisation.offering_permissions;
  return {
    enable_offerings: permissions.enable_offerings,
    can_manage: policy.manageOfferings(actor) && permissions.enable_offerings,
    types: allowedOfferingTypes(permissions).map((value) => ({ value, label: offeringTypeLabel[value] })),
    billing_frequencies: allowedBillingFrequencies(context.organisation.price_frequencies).map((value) => ({
      value,
      label: frequencyLabel[value],
    })),
    term_units: termUnits.map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) })),
    gyms: context.gyms.map((gym) => ({ id: gym.gym_id, name: gym.name })),
  };
}

/** Checks an input against the organisation: type allowed (unless unchanged), gyms its own. */
function checkAgainstOrganisation(input: OfferingInput, context: OrganisationContext, currentType?: string) {
  const errors: Record<string, string[]> = {};
  if (
    input.type !== currentType &&
    !isOfferingTypeAllowed(context.organisation.offering_permissions, input.type)
  ) {
    errors.type = [typeNotAllowedMessage(input.type)];
  }
  if (!input.all_gyms_access) {
    const own = new Set(context.gyms.map((gym) => gym.gym_id));
    if (input.gyms.some((id) => !own.has(id))) errors.gyms = [offeringMessages.unknownGym];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** The stored form of a checked input: a 24/7 offering keeps no hours; all-gyms access keeps no gym list. */
function storedFields(input: OfferingInput) {
  return {
    name: input.name,
    description: input.description ?? undefined,
    type: input.type,
    all_gyms_access: input.all_gyms_access,
    gym_ids: input.all_gyms_access ? [] : [...new Set(input.gyms)],
    mandated: input.mandated,
    hours_mandated: input.hours_mandated,
    prices_mandated: input.prices_mandated,
    hours:
      input.type === "limited_access"
        ? input.hours.map((row) => ({
            id: row.id || newId(),
            day: row.day,
            open_at: row.open_at,
            close_at: row.close_at,
          }))
        : [],
  };
}

/** Writes a new offering for an organisation (the service and the demo seed use it). */
export async function insertOffering(organisationId: string, input: OfferingInput): Promise<OfferingRecord> {
  const { data } = await db()
    .entities.offering.create({
      organisation_id: organisationId,
      offering_id: newId(),
      ...storedFields(input),
    })
    .go();
  return data as OfferingRecord;
}

/** POST /api/offerings. */
export async function createOffering(actor: Actor, body: unknown) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const input = parse(offeringInput, body);
  const context = await organisationContext(organisationId);
  assertOfferingsEnabled(context);
  checkAgainstOrganisation(input, context);
  authorizeOffering(actor, scopeOf(input));
  const offering = await insertOffering(organisationId, input);
  return presentOffering(offering, { prices: [], gyms: context.gyms });
}

/**
 * PUT /api/offerings/{id}: the whole offering is sent. An existing offering may keep a type the
 * organisation has since turned off; changing to a type needs the permission.
 */
export async function updateOffering(actor: Actor, offeringId: string, body: unknown) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const input = parse(offeringInput, body);
  const [context, current] = await Promise.all([
    organisationContext(organisationId),
    offeringOf(organisationId, offeringId),
  ]);
  // Both as it is and as it would be: a gym admin neither takes over nor widens an offering.
  authorizeOffering(actor, current);
  assertOfferingsEnabled(context);
  checkAgainstOrganisation(input, context, current.type);
  authorizeOffering(actor, scopeOf(input));
  const { description, ...fields } = storedFields(input);
  const update = db()
    .entities.offering.patch({ organisation_id: organisationId, offering_id: offeringId })
    .set(description ? { ...fields, description } : fields);
  await (description ? update : update.remove(["description"])).go();
  return present((await offeringOf(organisationId, offeringId)) as OfferingRecord, context);
}

/**
 * DELETE /api/offerings/{id}/archive: no longer offered to new members; existing members keep
 * their subscriptions. Archiving again keeps the first archive date.
 */
export async function archiveOffering(actor: Actor, offeringId: string) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const [context, offering] = await Promise.all([
    organisationContext(organisationId),
    offeringOf(organisationId, offeringId),
  ]);
  authorizeOffering(actor, offering);
  if (!offering.archived_at) {
    await db()
      .entities.offering.patch({ organisation_id: organisationId, offering_id: offeringId })
      .set({ archived_at: new Date().toISOString() })
      .go();
  }
  return present(await offeringOf(organisationId, offeringId), context);
}

/**
 * DELETE /api/offerings/{id}: only when none of its prices was ever subscribed to (else 409,
 * archive instead). Its prices and their private links go with it, in one transaction whose
 * conditions re-check the counters, so a subscription starting meanwhile wins.
 */
export async function deleteOffering(actor: Actor, offeringId: string) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const offering = await offeringOf(organisationId, offeringId);
  authorizeOffering(actor, offering);
  const prices = await listOfferingPriceRecords(organisationId, offeringId);
  if (prices.some((price) => price.subscriptions_count > 0))
    throw new ConflictError(offeringMessages.hasMembers, "has_members");
  const tokens = prices.flatMap((price) => price.private_links.map((link) => link.token));
  if (prices.length + tokens.length + 1 > 100) {
    throw new ConflictError(
      "This offering has too many prices and links to delete at once. Archive it instead.",
    );
  }
  const { canceled } = await db()
    .transaction.write(({ offering: offerings, price, joinLink }) => [
      ...prices.map((p) =>
        price
          .delete({ organisation_id: organisationId, price_id: p.price_id })
          .where((attr, op) => op.eq(attr.subscriptions_count, 0))
          .commit(),
      ),
      ...tokens.map((token) => joinLink.delete({ token }).commit()),
      offerings.delete({ organisation_id: organisationId, offering_id: offering.offering_id }).commit(),
    ])
    .go();
  if (canceled) throw new ConflictError(offeringMessages.hasMembers, "has_members");
  return { id: offeringId, deleted: true as const };
}
