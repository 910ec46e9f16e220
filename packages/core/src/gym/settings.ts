/**
 * A gym's settings page: the gyms list, a gym's details and visit tracking. Beside it, by
 * concern: `logo.ts`, `branch.ts`, `akahu-app.ts`, `stripe-connect.ts`, `access-control.ts` (Kisi
 * places and doors); `present.ts` shapes the answer. The destination account (where members'
 * payments go) is the ledger's: payment/destination-account.ts.
 */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inGym, policy } from "../auth/policy";
import { type Gym, type GymListItem, gymInput, tracksVisitsInput } from "../contract/gym";
import { db } from "../db/service";
import { getOrganisation } from "../organisation/service";
import { organisationSettings } from "../organisation/settings";
import { parse } from "../validation";
import { countsByGym } from "./counts";
import { presentGym, roleLabel } from "./present";
import { type GymRecord, getGym } from "./service";

/** A gym's settings may be changed by organisation admins, and by gym admins for their own gyms. */
export function mayManage(actor: Actor, gymId: string) {
  inGym(actor, gymId);
  authorize(
    policy.useStaffArea(actor) && policy.manageGym(actor, gymId),
    "Only organisation admins and this gym's admins may change its settings.",
  );
}

/** GET /api/gyms: the gyms the user can reach, with their role and the counts. */
export async function listMyGyms(actor: Actor): Promise<GymListItem[]> {
  if (!actor.organisationId) return [];
  const counts = await countsByGym(actor.organisationId);
  return actor.gyms.map((gym) => ({
    id: gym.gym_id,
    name: gym.name,
    selected: gym.gym_id === actor.gymId,
    role: roleLabel(actor, gym.gym_id),
    ...counts(gym.gym_id),
  }));
}

async function view(actor: Actor, gym: GymRecord): Promise<Gym> {
  const [org, counts] = await Promise.all([
    getOrganisation(gym.organisation_id),
    countsByGym(gym.organisation_id),
  ]);
  return presentGym(
    gym,
    actor,
    organisationSettings(org),
    { id: org.organisation_id, name: org.name },
    counts(gym.gym_id),
  );
}

/** GET /api/gyms/{id}: the gym's settings page (those who may change them). */
export async function readGym(actor: Actor, gymId: string) {
  mayManage(actor, gymId);
  return view(actor, await getGym(currentOrganisation(actor), gymId));
}

export async function patchGym(
  actor: Actor,
  gymId: string,
  set: Record<string, unknown>,
  remove: string[] = [],
) {
  const organisationId = currentOrganisation(actor);
  const key = { organisation_id: organisationId, gym_id: gymId };
  const gym = db().entities.gym;
  const request = Object.keys(set).length
    ? remove.length
      ? gym
          .patch(key)
          .set(set as never)
          .remove(remove as never)
      : gym.patch(key).set(set as never)
    : gym.patch(key).remove(remove as never);
  const { data } = await request.go({ response: "all_new" });
  return view(actor, data as GymRecord);
}

export async function updateGym(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const values = parse(gymInput, input);
  await getGym(currentOrganisation(actor), gymId);
  const set: Record<string, unknown> = { name: values.name };
  const remove: string[] = [];
  const optional = {
    price_change_notification_reply_to: values.price_change_notification_reply_to,
    break_fee_basis_points: values.break_fee_basis_points,
    card_surcharge_basis_points: values.card_surcharge_basis_points,
    card_surcharge_fixed_cents: values.card_surcharge_fixed_cents,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value === undefined) continue;
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  return patchGym(actor, gymId, set, remove);
}

export async function setTracksVisits(actor: Actor, gymId: string, input: unknown) {
  mayManage(actor, gymId);
  const { tracks_visits } = parse(tracksVisitsInput, input);
  await getGym(currentOrganisation(actor), gymId);
  return patchGym(actor, gymId, { tracks_visits });
}
