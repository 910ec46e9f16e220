/**
 * Organisation and gym records the money machinery reads (settings, the card surcharge override,
 * the connected Stripe account, the destination account). **Read when used, never kept**: a gym's
 * surcharge saved a moment ago by another process (the API) applies to the next charge (issue 22:
 * a 30-second per-process copy charged members the old rate). A job that handles many payments at
 * once shares one read per organisation and gym within a batch (`batchContext`), never across batches.
 */
import { getGym } from "../gym/service";
import { getOrganisation, type Organisation } from "../organisation/service";
import { type OrganisationSettings, organisationSettings } from "../organisation/settings";

type Gym = Awaited<ReturnType<typeof getGym>>;

export function organisationOf(organisationId: string): Promise<Organisation> {
  return getOrganisation(organisationId);
}

export function gymOf(organisationId: string, gymId: string): Promise<Gym> {
  return getGym(organisationId, gymId);
}

export async function settingsOf(organisationId: string): Promise<OrganisationSettings> {
  return organisationSettings(await organisationOf(organisationId));
}

export interface BillingContext {
  organisationOf(organisationId: string): Promise<Organisation>;
  gymOf(organisationId: string, gymId: string): Promise<Gym>;
  settingsOf(organisationId: string): Promise<OrganisationSettings>;
}

/**
 * The records read fresh for one batch (a page of the billing run, one API request), each once;
 * `known`: gyms this request has read already (the session's, `Actor.gymRecords`).
 */
export function batchContext(known: { gyms?: readonly Gym[] } = {}): BillingContext {
  const organisations = new Map<string, Promise<Organisation>>();
  const gyms = new Map<string, Promise<Gym>>(
    (known.gyms ?? []).map((gym) => [`${gym.organisation_id}#${gym.gym_id}`, Promise.resolve(gym)]),
  );
  const once = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>) => {
    let hit = map.get(key);
    if (!hit) {
      hit = load();
      map.set(key, hit);
    }
    return hit;
  };
  const context: BillingContext = {
    organisationOf: (id) => once(organisations, id, () => getOrganisation(id)),
    gymOf: (org, gym) => once(gyms, `${org}#${gym}`, () => getGym(org, gym)),
    settingsOf: async (id) => organisationSettings(await context.organisationOf(id)),
  };
  return context;
}

/** The records read fresh each time. */
export const freshContext: BillingContext = { organisationOf, gymOf, settingsOf };

/**
 * Records the caller read in this same request (a page's batch, the prelude's gyms), answered from
 * hand; anything else read fresh. Kept only for the request that read them, as `batchContext`.
 */
export function knownContext(known: {
  organisation?: Organisation | null;
  gyms?: readonly (Gym | null | undefined)[];
}): BillingContext {
  const context: BillingContext = {
    organisationOf: (id) =>
      known.organisation?.organisation_id === id ? Promise.resolve(known.organisation) : organisationOf(id),
    gymOf: (organisationId, gymId) => {
      const hit = known.gyms?.find((gym) => gym?.organisation_id === organisationId && gym.gym_id === gymId);
      return hit ? Promise.resolve(hit) : gymOf(organisationId, gymId);
    },
    settingsOf: async (id) => organisationSettings(await context.organisationOf(id)),
  };
  return context;
}
