/** The live memberships on a price, for the bulk price-change page (change-price.ts) to pick from. */
import type { Actor } from "../../auth/actor";
import { adminGymIds, staffOrganisation } from "../../auth/scope";
import { formatCents } from "../../billing/money";
import { deriveSubscriptionState } from "../../billing/subscription-state";
import { businessNow } from "../../clock";
import type { PriceChangeCandidate } from "../../contract/lifecycle";
import { NotFoundError } from "../../errors";
import { findPrice } from "../../price/store";
import { titleCase } from "../../text";
import { factsOf } from "../states";
import { isLive, priceSubscriptionsPage } from "../store";

/** More than this many memberships on one price are listed as the first this many (a change takes 200 at once). */
export const PRICE_CHANGE_CANDIDATES_LIMIT = 1_000;

/**
 * `GET /api/prices/{id}/subscriptions`: the live memberships on a price at the gyms this staff member
 * administers, for the bulk price-change page to pick from (one Query by price, paged until done).
 */
export async function priceChangeCandidates(actor: Actor, priceId: string, gymId?: string) {
  const organisationId = staffOrganisation(actor);
  const price = await findPrice(organisationId, priceId);
  if (!price) throw new NotFoundError("price");
  const gyms = adminGymIds(actor).filter((g) => !gymId || g === gymId);
  const now = await businessNow();
  const out: PriceChangeCandidate[] = [];
  let cursor: string | null = null;
  do {
    const page = await priceSubscriptionsPage(organisationId, priceId, cursor, 200);
    for (const sub of page.items) {
      if (!gyms.includes(sub.gym_id) || !isLive(sub, now)) continue;
      const state = deriveSubscriptionState(factsOf(sub, now));
      const amount = sub.force_price_amount ?? sub.amount;
      out.push({
        id: sub.subscription_id,
        member: { id: sub.user_id, name: titleCase(sub.member_name), email: sub.member_email },
        gym: { id: sub.gym_id, name: sub.gym_name },
        amount,
        formatted_amount: formatCents(amount),
        card_colour: state.card_colour,
        has_scheduled_price_change: state.has_scheduled_price_change,
      });
    }
    cursor = page.cursor;
  } while (cursor && out.length < PRICE_CHANGE_CANDIDATES_LIMIT);
  return out
    .slice(0, PRICE_CHANGE_CANDIDATES_LIMIT)
    .sort((a, b) => a.member.name.localeCompare(b.member.name));
}
