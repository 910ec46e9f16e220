/** Reads of a member's trial uses (docs/offers.md "Once per member"): no authorisation, only db/. */
import { db } from "../db/service";

/** Whether the member already took this price's trial (in this organisation). */
export async function hasHadTrial(organisationId: string, priceId: string, userId: string) {
  const { data } = await db()
    .entities.trialUse.get({ organisation_id: organisationId, price_id: priceId, user_id: userId })
    .go();
  return data !== null;
}
