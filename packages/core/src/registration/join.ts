/**
 * What a join link offers (`GET /api/join`), before anyone signs in: a gym's public link by its
 * uuid, a private price link, an age-bypass link. Only offerings and prices that are offered
 * publicly (not archived, not private) are shown, plus the private price of a price link.
 * docs/registration.md.
 */

import type { Actor } from "../auth/actor";
import { authorize, inOrganisation, policy } from "../auth/policy";
import {
  aucklandDate,
  formatCents,
  formatTerm,
  frequencyLabel,
  isTermMembership,
  membershipTypeLabel,
} from "../billing/index";
import { businessNow } from "../clock";
import { offeringTypeLabel } from "../contract/offering";
import { priceKindOf } from "../contract/price";
import {
  type JoinOffering,
  type JoinOptions,
  type JoinPrice,
  joinOptionsQuery,
  registrationMessages,
  registrationSettingsInput,
} from "../contract/registration";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { logoUrl } from "../gym/present";
import { listGyms } from "../gym/service";
import type { OfferingRecord } from "../offering/present";
import { listOfferingRecords } from "../offering/store";
import { getOrganisation, type Organisation } from "../organisation/service";
import { resolveJoinLink } from "../price/links";
import { formatPass, type PriceRecord, priceLabel, trialOfPrice } from "../price/present";
import { listPriceRecords } from "../price/store";
import { akahuProvider, platformAkahuApp } from "../providers/akahu/index";
import { parse } from "../validation";

/** Spec default: members must be 16 unless the organisation says otherwise. */
export const DEFAULT_MIN_REGISTRATION_AGE = 16;

export function minRegistrationAge(organisation: Pick<Organisation, "min_registration_age">): number {
  return organisation.min_registration_age ?? DEFAULT_MIN_REGISTRATION_AGE;
}

export async function findGymByUuid(uuid: string) {
  if (!uuid || uuid.length > 64) return null;
  const { data } = await db().entities.gym.query.byUuid({ uuid }).go({ limit: 1 });
  return data[0] ?? null;
}

export type GymRecordLite = NonNullable<Awaited<ReturnType<typeof findGymByUuid>>>;

export function presentJoinPrice(price: PriceRecord): JoinPrice {
  const term = {
    billing_frequency: price.billing_frequency,
    term_amount: price.term_amount,
    term_unit: price.term_unit,
  };
  const joiningFee = price.joining_fee ?? null;
  return {
    id: price.price_id,
    label: priceLabel(price),
    amount: price.amount,
    formatted_amount: formatCents(price.amount),
    billing_frequency: price.billing_frequency,
    frequency_label: frequencyLabel[price.billing_frequency],
    joining_fee: joiningFee,
    formatted_joining_fee: joiningFee ? formatCents(joiningFee) : null,
    membership_type: membershipTypeLabel(term),
    formatted_term: isTermMembership(term) ? formatTerm(price.term_amount!, price.term_unit!) : null,
    private: price.private,
    kind: priceKindOf(price),
    visits: price.billing_frequency === "one_off" ? (price.visits ?? null) : null,
    valid_days: price.billing_frequency === "one_off" ? (price.valid_days ?? null) : null,
    formatted_pass: formatPass(price),
    ...trialOfPrice(price),
  };
}

const offeredAt = (offering: OfferingRecord, gymId: string) =>
  !offering.archived_at && (offering.all_gyms_access || offering.gym_ids.includes(gymId));

/** Whether a gym can take bank payments (its own Akahu app, the platform's, or the simulator). */
export function takesBank(gym: { akahu_app_token?: string | null }) {
  return Boolean(gym.akahu_app_token) || Boolean(platformAkahuApp()) || akahuProvider().mode === "simulated";
}

export interface ResolvedLinks {
  organisationId: string;
  /** A private price link's price (its token was given). */
  linkedPrice: { price_id: string; offering_id: string; link_id: string; token: string } | null;
  /** The age-bypass link (or age-bypassing price link) that applies, by its id. */
  ageBypassLinkId: string | null;
}

/**
 * Reads the link tokens of a join address. A token that is unknown, or of another organisation
 * than the gym's, answers 404 (a dead link), never someone else's offer.
 */
export async function resolveLinks(input: {
  organisationId: string | null;
  price?: string | null;
  age_bypass?: string | null;
}): Promise<ResolvedLinks> {
  let organisationId = input.organisationId;
  let linkedPrice: ResolvedLinks["linkedPrice"] = null;
  let ageBypassLinkId: string | null = null;
  if (input.price) {
    const link = await resolveJoinLink(input.price);
    if (link?.kind !== "price" || !link.price_id || !link.offering_id) throw new NotFoundError("link");
    if (organisationId && link.organisation_id !== organisationId) throw new NotFoundError("link");
    organisationId = link.organisation_id;
    linkedPrice = {
      price_id: link.price_id,
      offering_id: link.offering_id,
      link_id: link.id,
      token: input.price,
    };
    if (link.age_bypass) ageBypassLinkId = link.id;
  }
  if (input.age_bypass) {
    const link = await resolveJoinLink(input.age_bypass);
    if (!link?.age_bypass) throw new NotFoundError("link");
    if (organisationId && link.organisation_id !== organisationId) throw new NotFoundError("link");
    organisationId = link.organisation_id;
    ageBypassLinkId = link.id;
  }
  if (!organisationId) throw ValidationError.field("gym", registrationMessages.gymOrLink);
  return { organisationId, linkedPrice, ageBypassLinkId };
}

/** The offerings at a gym with the prices a person may choose (public ones, and a link's private price). */
export function offeredPrices(
  gymId: string,
  offerings: OfferingRecord[],
  prices: PriceRecord[],
  linkedPriceId: string | null,
): JoinOffering[] {
  return offerings
    .filter((offering) => offeredAt(offering, gymId))
    .map((offering) => ({
      id: offering.offering_id,
      name: offering.name,
      description: offering.description ?? null,
      type_label: offeringTypeLabel[offering.type],
      prices: prices
        .filter(
          (p) =>
            p.offering_id === offering.offering_id &&
            !p.archived_at &&
            (!p.private || p.price_id === linkedPriceId),
        )
        .sort((a, b) => a.amount - b.amount || a.price_id.localeCompare(b.price_id))
        .map(presentJoinPrice),
    }))
    .filter((offering) => offering.prices.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name, "en-NZ"));
}

/** `GET /api/join?gym=<uuid>&price=<token>&age_bypass=<token>`. */
export async function joinOptions(query: unknown): Promise<JoinOptions> {
  const input = parse(joinOptionsQuery, query);
  const named = input.gym ? await findGymByUuid(input.gym) : null;
  if (input.gym && !named) throw new NotFoundError("gym");
  const links = await resolveLinks({
    organisationId: named?.organisation_id ?? null,
    price: input.price,
    age_bypass: input.age_bypass,
  });
  const [now, organisation, gyms, offerings, prices] = await Promise.all([
    businessNow(),
    getOrganisation(links.organisationId),
    listGyms(links.organisationId),
    listOfferingRecords(links.organisationId),
    listPriceRecords(links.organisationId),
  ]);
  const linked = links.linkedPrice;
  let eligible = gyms;
  if (linked) {
    const price = prices.find((p) => p.price_id === linked.price_id);
    const offering = offerings.find((o) => o.offering_id === linked.offering_id);
    if (!price || price.archived_at || !offering || offering.archived_at) throw new NotFoundError("link");
    eligible = gyms.filter((gym) => offeredAt(offering, gym.gym_id));
    if (!eligible.length) throw new NotFoundError("link");
  }
  const gym = (named && eligible.find((g) => g.gym_id === named.gym_id)) ?? eligible[0];
  if (!gym) throw new NotFoundError("gym");
  return {
    gym: { uuid: gym.uuid, name: gym.name, logo: logoUrl(gym.logo) },
    organisation: { name: organisation.name },
    gyms: linked ? eligible.map((g) => ({ uuid: g.uuid, name: g.name })) : [],
    offerings: offeredPrices(gym.gym_id, offerings, prices, linked?.price_id ?? null),
    selected_price_id: linked?.price_id ?? null,
    min_age: minRegistrationAge(organisation),
    age_bypass: links.ageBypassLinkId !== null,
    takes_cards: Boolean(gym.stripe_id),
    takes_bank: takesBank(gym),
    today: aucklandDate(now),
    terms_url: organisation.terms_url ?? null,
  };
}

/**
 * The organisation's joining settings: the minimum registration age (unset means
 * {@link DEFAULT_MIN_REGISTRATION_AGE}) and the terms and conditions address (staff read them;
 * organisation admins change them; another organisation's id answers 404).
 */
export async function readRegistrationSettings(actor: Actor, organisationId: string) {
  inOrganisation(actor, organisationId);
  authorize(policy.useStaffArea(actor));
  return presentRegistrationSettings(await getOrganisation(organisationId));
}

function presentRegistrationSettings(organisation: Pick<Organisation, "min_registration_age" | "terms_url">) {
  return {
    min_registration_age: minRegistrationAge(organisation),
    terms_url: organisation.terms_url ?? null,
  };
}

export async function setRegistrationSettings(actor: Actor, organisationId: string, body: unknown) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may change organisation settings.");
  const { min_registration_age, terms_url } = parse(registrationSettingsInput, body);
  await getOrganisation(organisationId);
  const update = db()
    .entities.organisation.patch({ organisation_id: organisationId })
    .set({ min_registration_age });
  // Absent keeps the saved address; blank or null removes it.
  const chain = terms_url
    ? update.set({ terms_url })
    : terms_url === null
      ? update.remove(["terms_url"])
      : update;
  const { data } = await chain.go({ response: "all_new" });
  return presentRegistrationSettings(data);
}
