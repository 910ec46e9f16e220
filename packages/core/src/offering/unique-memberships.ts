/**
 * The offering's member counter: how many distinct members hold a live subscription to an offering
 * at a gym (the `offeringMembers` item, one per offering and gym). Read by staff; kept by the
 * subscriptions work and cancellation for non-payment.
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inGym, policy } from "../auth/policy";
import { db } from "../db/service";
import { offeringOf } from "./service";

/**
 * GET /api/gyms/{gym}/offerings/{offering}/unique-memberships: how many distinct members hold a
 * subscription to this offering at this gym. The subscriptions work keeps the counter
 * (adjustUniqueMemberships); until a member subscribes it is 0.
 */
export async function uniqueMemberships(actor: Actor, gymId: string, offeringId: string) {
  authorize(policy.useStaffArea(actor));
  const organisationId = currentOrganisation(actor);
  inGym(actor, gymId);
  await offeringOf(organisationId, offeringId);
  const { data } = await db()
    .entities.offeringMembers.get({ organisation_id: organisationId, offering_id: offeringId, gym_id: gymId })
    .go();
  return { gym_id: gymId, offering_id: offeringId, unique_memberships: Math.max(0, data?.members ?? 0) };
}

/**
 * For the subscriptions work: a member started (+1) or stopped (-1) holding a subscription to an
 * offering at a gym. Call it when a member's first live subscription to the offering at that gym
 * begins and when their last one ends, so the counter counts members, not subscriptions.
 */
export async function adjustUniqueMemberships(
  organisationId: string,
  offeringId: string,
  gymId: string,
  delta: 1 | -1,
) {
  await db()
    .entities.offeringMembers.update({
      organisation_id: organisationId,
      offering_id: offeringId,
      gym_id: gymId,
    })
    .add({ members: delta })
    .go();
}
