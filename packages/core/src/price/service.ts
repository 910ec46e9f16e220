/**
 * Prices of offerings (spec 001 §3, §4, §5, §7). Every function takes the Actor and decides
 * access here: any staff member reads; organisation and gym admins (`policy.manageOfferings`)
 * create and change, a price following its offering's gym scope (`authorizeOffering`); the organisation's enabled price frequencies decide what a new price may
 * bill. Beside it: `pro-rata.ts` (the quote, also for members) and `links.ts` (private and
 * age-bypass links). Rules and status codes: docs/billing.md "Prices and offerings".
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inOrganisation, policy } from "../auth/policy";
import { type Price, type PriceInput, priceInput } from "../contract/price";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import {
  assertOfferingsEnabled,
  authorizeOffering,
  type OrganisationContext,
  organisationContext,
  presentPrices,
  sortPrices,
} from "../offering/context";
import { allowedBillingFrequencies, frequencyNotAllowedMessage } from "../offering/permissions";
import type { OfferingRecord } from "../offering/present";
import { findOffering, listOfferingRecords } from "../offering/store";
import { racePoint } from "../race-points";
import { parse } from "../validation";
import { type PriceRecord, presentPrice } from "./present";
import { findPrice, listOfferingPriceRecords, listPriceRecords } from "./store";

export const priceMessages = {
  hasMembers: "This price has members, so it cannot be deleted. Archive it instead.",
  lockedWhenSubscribed:
    "This price has members, so its amount, frequency, joining fee and term cannot change. Archive it and add a new price instead.",
  offeringArchived:
    "This offering is archived, so its prices are not offered. Add prices to an active offering.",
  archivedPrice: "This price is archived. Restore it before sharing a link to it.",
  tooManyLinks: "This price already has 50 private links.",
  billingBeforeStart: "The billing date must be on or after the start date",
  pif: "A pay-in-full (PIF) price is paid once in full, so there is no pro-rata",
} as const;
export async function offeringOf(organisationId: string, offeringId: string): Promise<OfferingRecord> {
  const offering = await findOffering(organisationId, offeringId);
  if (!offering) throw new NotFoundError("offering");
  return offering;
}

export async function priceOf(organisationId: string, priceId: string): Promise<PriceRecord> {
  const price = await findPrice(organisationId, priceId);
  if (!price) throw new NotFoundError("price");
  return price;
}

function view(
  price: PriceRecord,
  offering: OfferingRecord,
  context: OrganisationContext,
  withLinks = true,
): Price {
  return presentPrice(price, { offering, surcharge: context.surcharge, today: context.today, withLinks });
}

/** The chosen frequency must be enabled for the organisation (unless the price already had it): 422 on billing_frequency. */
function checkFrequency(input: PriceInput, context: OrganisationContext, current?: PriceRecord) {
  if (current && current.billing_frequency === input.billing_frequency) return;
  if (!allowedBillingFrequencies(context.organisation.price_frequencies).includes(input.billing_frequency)) {
    throw ValidationError.field("billing_frequency", frequencyNotAllowedMessage(input.billing_frequency));
  }
}

function storedFields(input: PriceInput) {
  return {
    amount: input.amount,
    billing_frequency: input.billing_frequency,
    private: input.private,
    joining_fee: input.joining_fee ?? undefined,
    term_amount: input.term_amount ?? undefined,
    term_unit: input.term_unit ?? undefined,
    trial_days: input.trial_days ?? undefined,
    trial_amount: input.trial_days != null ? (input.trial_amount ?? 0) : undefined,
    visits: input.visits ?? undefined,
    valid_days: input.valid_days ?? undefined,
  };
}
/**
 * GET /api/organisations/{id}/prices: every price of the organisation with its offering, offered
 * ones only (neither price nor offering archived) unless include_archived. Two queries.
 */
export async function listOrganisationPrices(
  actor: Actor,
  organisationId: string,
  options: { include_archived?: boolean } = {},
) {
  authorize(policy.useStaffArea(actor));
  inOrganisation(actor, organisationId);
  const [context, offerings, prices] = await Promise.all([
    organisationContext(organisationId),
    listOfferingRecords(organisationId),
    listPriceRecords(organisationId),
  ]);
  const offeringById = new Map(offerings.map((o) => [o.offering_id, o]));
  const views = prices.flatMap((price) => {
    const offering = offeringById.get(price.offering_id);
    if (!offering) return [];
    const v = view(price, offering, context);
    return options.include_archived || v.offered ? [v] : [];
  });
  return sortPrices(views).sort(
    (a, b) =>
      Number(!a.offered) - Number(!b.offered) || a.offering.name.localeCompare(b.offering.name, "en-NZ"),
  );
}

/** GET /api/offerings/{id}/prices: the offering's prices not archived, or all with include_archived. */
export async function listOfferingPrices(
  actor: Actor,
  offeringId: string,
  options: { include_archived?: boolean } = {},
) {
  authorize(policy.useStaffArea(actor));
  const organisationId = currentOrganisation(actor);
  const [context, offering, prices] = await Promise.all([
    organisationContext(organisationId),
    offeringOf(organisationId, offeringId),
    listOfferingPriceRecords(organisationId, offeringId),
  ]);
  return presentPrices(
    prices.filter((p) => options.include_archived || !p.archived_at),
    offering,
    context,
    true,
  );
}

/** Writes a new price (the service and the demo seed use it). */
export async function insertPrice(
  organisationId: string,
  offeringId: string,
  input: PriceInput,
): Promise<PriceRecord> {
  const priceId = newId();
  const { data } = await db()
    .entities.price.create({
      organisation_id: organisationId,
      price_id: priceId,
      offering_id: offeringId,
      grouping_unique_identifier: priceId,
      ...storedFields(input),
    })
    .go();
  return data as PriceRecord;
}

/** POST /api/offerings/{id}/prices. */
export async function createPrice(actor: Actor, offeringId: string, body: unknown) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const input = parse(priceInput, body);
  const [context, offering] = await Promise.all([
    organisationContext(organisationId),
    offeringOf(organisationId, offeringId),
  ]);
  authorizeOffering(actor, offering);
  assertOfferingsEnabled(context);
  if (offering.archived_at) throw new ConflictError(priceMessages.offeringArchived, "offering_archived");
  checkFrequency(input, context);
  return view(await insertPrice(organisationId, offeringId, input), offering, context);
}

/**
 * PUT /api/prices/{id}. A price nobody subscribed to may change freely (within the enabled
 * frequencies). Once subscribed, only `private` may change: members' amounts change through
 * the price-change flow, with notice (409 otherwise).
 */
export async function updatePrice(actor: Actor, priceId: string, body: unknown) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const input = parse(priceInput, body);
  const [context, current] = await Promise.all([
    organisationContext(organisationId),
    priceOf(organisationId, priceId),
  ]);
  const offering = await offeringOf(organisationId, current.offering_id);
  authorizeOffering(actor, offering);
  assertOfferingsEnabled(context);
  const fields = storedFields(input);
  const changesTerms =
    fields.amount !== current.amount ||
    fields.billing_frequency !== current.billing_frequency ||
    (fields.joining_fee ?? null) !== (current.joining_fee ?? null) ||
    (fields.term_amount ?? null) !== (current.term_amount ?? null) ||
    (fields.term_unit ?? null) !== (current.term_unit ?? null);
  if (changesTerms && current.subscriptions_count > 0)
    throw new ConflictError(priceMessages.lockedWhenSubscribed, "has_members");
  checkFrequency(input, context, current);
  // A trial or a pass's visits and days may change while members are subscribed: theirs are snapshotted on
  // their subscription.
  const removed = (
    ["joining_fee", "term_amount", "term_unit", "trial_days", "trial_amount", "visits", "valid_days"] as const
  ).filter((name) => fields[name] === undefined);
  const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  await racePoint("price-edit:read", priceId);
  let update = db().entities.price.patch({ organisation_id: organisationId, price_id: priceId }).set(set);
  if (removed.length) update = update.remove([...removed]);
  if (changesTerms) update = update.where((attr, op) => op.eq(attr.subscriptions_count, 0));
  try {
    await update.go();
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(priceMessages.lockedWhenSubscribed, "has_members");
    throw error;
  }
  return view(await priceOf(organisationId, priceId), offering, context);
}

function isConditionFailure(error: unknown): boolean {
  const text = `${(error as { message?: string })?.message ?? ""} ${(error as { cause?: { name?: string } })?.cause?.name ?? ""}`;
  return /ConditionalCheckFailed|conditional request failed/i.test(text);
}

/** DELETE /api/prices/{id}/archive: no longer offered to new members; existing members keep it. */
export async function archivePrice(actor: Actor, priceId: string) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const [context, price] = await Promise.all([
    organisationContext(organisationId),
    priceOf(organisationId, priceId),
  ]);
  const offering = await offeringOf(organisationId, price.offering_id);
  authorizeOffering(actor, offering);
  if (!price.archived_at) {
    await db()
      .entities.price.patch({ organisation_id: organisationId, price_id: priceId })
      .set({ archived_at: new Date().toISOString() })
      .go();
  }
  return view(await priceOf(organisationId, priceId), offering, context);
}

/** POST /api/prices/{id}/restore: offered again; not while its offering is archived (409). */
export async function restorePrice(actor: Actor, priceId: string) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const [context, price] = await Promise.all([
    organisationContext(organisationId),
    priceOf(organisationId, priceId),
  ]);
  const offering = await offeringOf(organisationId, price.offering_id);
  authorizeOffering(actor, offering);
  assertOfferingsEnabled(context);
  if (offering.archived_at) throw new ConflictError(priceMessages.offeringArchived, "offering_archived");
  if (price.archived_at) {
    await db()
      .entities.price.patch({ organisation_id: organisationId, price_id: priceId })
      .remove(["archived_at"])
      .go();
  }
  return view(await priceOf(organisationId, priceId), offering, context);
}

/**
 * DELETE /api/prices/{id}: only when nobody ever subscribed (409 otherwise: archive it). Its
 * private links go with it; the condition re-checks the counter inside the transaction.
 */
export async function deletePrice(actor: Actor, priceId: string) {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const price = await priceOf(organisationId, priceId);
  authorizeOffering(actor, await offeringOf(organisationId, price.offering_id));
  if (price.subscriptions_count > 0) throw new ConflictError(priceMessages.hasMembers, "has_members");
  const { canceled } = await db()
    .transaction.write(({ price: prices, joinLink }) => [
      prices
        .delete({ organisation_id: organisationId, price_id: priceId })
        .where((attr, op) => op.eq(attr.subscriptions_count, 0))
        .commit(),
      ...price.private_links.map((link) => joinLink.delete({ token: link.token }).commit()),
    ])
    .go();
  if (canceled) throw new ConflictError(priceMessages.hasMembers, "has_members");
  return { id: priceId, deleted: true as const };
}
/**
 * For the subscriptions work: a subscription was started on this price. The counter only goes up
 * (it means "ever subscribed"): from then on the price can be archived but not deleted.
 */
export async function recordPriceSubscribed(organisationId: string, priceId: string) {
  await db()
    .entities.price.patch({ organisation_id: organisationId, price_id: priceId })
    .add({ subscriptions_count: 1 })
    .go();
}
