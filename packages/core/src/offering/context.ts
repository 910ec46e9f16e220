/**
 * What presenting offerings and prices needs from the organisation: its settings, its gyms, the
 * card surcharge and today's Auckland date (the date term totals are quoted from).
 */

import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { aucklandDate, billingFrequencies } from "../billing/index";
import type { Price } from "../contract/price";
import { ForbiddenError } from "../errors";
import { listGyms } from "../gym/service";
import { getOrganisation } from "../organisation/service";
import { type PriceContext, type PriceRecord, presentPrice } from "../price/present";
import { cardSurchargeSettings } from "../price/surcharge";
import type { OfferingRecord } from "./present";

export async function organisationContext(organisationId: string, now = new Date()) {
  const [organisation, gyms] = await Promise.all([getOrganisation(organisationId), listGyms(organisationId)]);
  return {
    organisation,
    gyms,
    surcharge: cardSurchargeSettings(organisation),
    today: aucklandDate(now),
  };
}

export type OrganisationContext = Awaited<ReturnType<typeof organisationContext>>;

export const OFFERINGS_OFF_MESSAGE =
  "Offerings are turned off for your organisation. An organisation admin can turn them on in Settings.";

export const OUTSIDE_GYM_SCOPE_MESSAGE =
  "Only an organisation admin can change this offering: it is not limited to gyms you administer.";

/**
 * 403 unless the actor may manage this offering (gym scope, `policy.manageOffering`); its prices
 * and links follow it. Called after the offering is found, so another organisation's ids stay 404.
 */
export function authorizeOffering(
  actor: Actor,
  offering: { all_gyms_access: boolean; gym_ids: readonly string[] },
): void {
  authorize(policy.manageOffering(actor, offering), OUTSIDE_GYM_SCOPE_MESSAGE);
}

/** Creating or changing what is offered needs the organisation's enable_offerings permission (403). */
export function assertOfferingsEnabled(context: OrganisationContext): void {
  if (!context.organisation.offering_permissions.enable_offerings)
    throw new ForbiddenError(OFFERINGS_OFF_MESSAGE);
}

const frequencyOrder = new Map<string, number>(billingFrequencies.map((f, i) => [f, i]));

/** Prices not archived first, then in the spec's frequency order, then by amount, then oldest first. */
export function sortPrices(prices: Price[]): Price[] {
  return [...prices].sort(
    (a, b) =>
      Number(Boolean(a.archived_at)) - Number(Boolean(b.archived_at)) ||
      (frequencyOrder.get(a.billing_frequency) ?? 0) - (frequencyOrder.get(b.billing_frequency) ?? 0) ||
      a.amount - b.amount ||
      a.id.localeCompare(b.id),
  );
}

export function presentPrices(
  prices: PriceRecord[],
  offering: Pick<OfferingRecord, "offering_id" | "name" | "archived_at">,
  context: OrganisationContext,
  withLinks: boolean,
): Price[] {
  const priceContext: PriceContext = {
    offering,
    surcharge: context.surcharge,
    today: context.today,
    withLinks,
  };
  return sortPrices(prices.map((price) => presentPrice(price, priceContext)));
}
