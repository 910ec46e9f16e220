/**
 * Organisation and gym records the money machinery reads for every payment (settings, the
 * connected Stripe account, the destination account), cached for a short while per process so
 * a billing run of 10,000 payments reads each organisation and gym once, not once per payment.
 */
import type { SurchargeSettings } from "../billing/money";
import { getGym } from "../gym/service";
import { getOrganisation, type Organisation } from "../organisation/service";
import { cardSurchargeFor, type OrganisationSettings, organisationSettings } from "../organisation/settings";

type Gym = Awaited<ReturnType<typeof getGym>>;

const TTL_MS = 30_000;
const organisations = new Map<string, { at: number; value: Promise<Organisation> }>();
const gyms = new Map<string, { at: number; value: Promise<Gym> }>();

function cached<T>(map: Map<string, { at: number; value: Promise<T> }>, key: string, load: () => Promise<T>) {
  const hit = map.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = load();
  value.catch(() => map.delete(key));
  map.set(key, { at: Date.now(), value });
  return value;
}

export function organisationOf(organisationId: string): Promise<Organisation> {
  return cached(organisations, organisationId, () => getOrganisation(organisationId));
}

export function gymOf(organisationId: string, gymId: string): Promise<Gym> {
  return cached(gyms, `${organisationId}#${gymId}`, () => getGym(organisationId, gymId));
}

export async function settingsOf(organisationId: string): Promise<OrganisationSettings> {
  return organisationSettings(await organisationOf(organisationId));
}

export async function cardSurchargeOf(organisationId: string, gymId: string): Promise<SurchargeSettings> {
  const [settings, gym] = await Promise.all([settingsOf(organisationId), gymOf(organisationId, gymId)]);
  return cardSurchargeFor(settings, gym);
}

/** After a settings change in this process (and in tests). */
export function forgetBillingContext() {
  organisations.clear();
  gyms.clear();
}
