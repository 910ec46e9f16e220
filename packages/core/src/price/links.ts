/**
 * Join-site links: a price's private links (registration opening with that price) and an
 * organisation's age-bypass links, each with a lookup record keyed by its token.
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inOrganisation, policy } from "../auth/policy";
import { newToken } from "../auth/tokens";
import { type NewPrivateLink, type PrivateLink, privateLinkInput } from "../contract/price";
import { db } from "../db/service";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { assertOfferingsEnabled, authorizeOffering, organisationContext } from "../offering/context";
import { parse } from "../validation";
import { ageBypassUrl, privatePriceUrl } from "./present";
import { offeringOf, priceMessages, priceOf } from "./service";

const MAX_LINKS_PER_PRICE = 50;
/**
 * POST /api/prices/{id}/private-links: a new unguessable join-site address opening registration
 * with this price (`age_bypass` also lets a member under the minimum age register). The lookup
 * record and the price's list are written together.
 */
export async function createPrivateLink(
  actor: Actor,
  priceId: string,
  body: unknown,
): Promise<NewPrivateLink> {
  authorize(policy.manageOfferings(actor));
  const organisationId = currentOrganisation(actor);
  const { age_bypass } = parse(privateLinkInput, body);
  const price = await priceOf(organisationId, priceId);
  const offering = await offeringOf(organisationId, price.offering_id);
  authorizeOffering(actor, offering);
  assertOfferingsEnabled(await organisationContext(organisationId));
  if (price.archived_at || offering.archived_at)
    throw new ConflictError(priceMessages.archivedPrice, "price_archived");
  if (price.private_links.length >= MAX_LINKS_PER_PRICE) throw new ConflictError(priceMessages.tooManyLinks);
  const link = { id: newId(), token: newToken(), age_bypass, created_at: new Date().toISOString() };
  const { canceled } = await db()
    .transaction.write(({ price: prices, joinLink }) => [
      joinLink
        .create({
          token: link.token,
          link_id: link.id,
          kind: "price",
          organisation_id: organisationId,
          offering_id: price.offering_id,
          price_id: priceId,
          age_bypass,
          created_by: actor.userId,
          created_at: link.created_at,
        })
        .commit(),
      prices
        .patch({ organisation_id: organisationId, price_id: priceId })
        .append({ private_links: [link] })
        .commit(),
    ])
    .go();
  if (canceled) throw new ConflictError("The link could not be created. Please try again.");
  return {
    id: link.id,
    url: privatePriceUrl(link.token),
    age_bypass,
    created_at: link.created_at,
    price_id: priceId,
  };
}

/**
 * POST /api/organisations/{organisationId}/age-bypass-links: an organisation-level join-site
 * address that lets a member under the minimum age register (with any offered price).
 */
export async function createAgeBypassLink(actor: Actor, organisationId: string): Promise<PrivateLink> {
  authorize(policy.useStaffArea(actor));
  inOrganisation(actor, organisationId);
  // Organisation-wide: it opens registration at every gym (docs/access-control.md "Gym scope").
  authorize(policy.manageOrganisationLinks(actor), "Only an organisation admin can create age-bypass links.");
  const link = { id: newId(), token: newToken(), created_at: new Date().toISOString() };
  await db()
    .entities.joinLink.create({
      token: link.token,
      link_id: link.id,
      kind: "age_bypass",
      organisation_id: organisationId,
      age_bypass: true,
      created_by: actor.userId,
      created_at: link.created_at,
    })
    .go();
  return {
    id: link.id,
    url: ageBypassUrl(link.token),
    age_bypass: true as const,
    created_at: link.created_at,
  };
}

/**
 * For the join site: what a link token opens, or null. A price link names its organisation,
 * offering and price (the caller still checks the price is offered); an age-bypass link its
 * organisation.
 */
export async function resolveJoinLink(token: string) {
  if (!token || token.length > 200) return null;
  const { data } = await db().entities.joinLink.get({ token }).go();
  if (!data) return null;
  return {
    id: data.link_id,
    kind: data.kind,
    organisation_id: data.organisation_id,
    offering_id: data.offering_id ?? null,
    price_id: data.price_id ?? null,
    age_bypass: data.age_bypass,
  };
}
