import { createHash } from "node:crypto";
import { ProviderError } from "../providers/errors";
import type { KisiEvent, KisiLock, KisiPlace, KisiPort } from "../providers/kisi/port";
import { onSimulatedReset } from "./simulation";

/** The simulated Kisi account: two places with a few locks each. */
export const SIMULATED_KISI_PLACES: KisiPlace[] = [
  { id: "41001", name: "Ponsonby Road building" },
  { id: "41002", name: "Newmarket building" },
];
export const SIMULATED_KISI_LOCKS: KisiLock[] = [
  { id: "51001", name: "Front door", place_id: "41001" },
  { id: "51002", name: "Studio door", place_id: "41001" },
  { id: "51003", name: "Staff room", place_id: "41001" },
  { id: "52001", name: "Main entrance", place_id: "41002" },
  { id: "52002", name: "Car park door", place_id: "41002" },
];

/**
 * Events the simulated Kisi account "recorded": the simulator (POST /api/dev/webhooks/kisi) and
 * tests add an event here before delivering its webhook, as a real unlock exists at Kisi before
 * Kisi posts it. A forged webhook names an event that is not here.
 */
const simulatedEvents = new Map<string, KisiEvent>();

export function recordSimulatedKisiEvent(event: Partial<KisiEvent> & { id: string }): KisiEvent {
  const full: KisiEvent = {
    action: null,
    object_type: null,
    place_id: null,
    lock_id: null,
    actor_id: null,
    success: null,
    created_at: new Date().toISOString(),
    ...event,
  };
  simulatedEvents.set(full.id, full);
  return full;
}

/**
 * Door access per organisation key, in memory for the process (cleared by resetSimulatedProviders):
 * members by email, and which places' members group each belongs to (the grant's id).
 */
interface SimulatedKisiOrg {
  members: Map<string, { user_id: string; name: string; external_id: string; access_enabled: boolean }>;
  /** `${place_id}:${email}` → role assignment id */
  grants: Map<string, string>;
}
const orgs = new Map<string, SimulatedKisiOrg>();

/**
 * Kisi's ids of a person and of a grant, stable as Kisi's are: derived from the key, place and
 * email, never a counter. A counter started again in each process, so a product started on a copy
 * of a seeded table (the e2e products) gave a new member the Kisi id of a seeded one, and their
 * door unlocks were counted as that member's visits (found by the offers e2e, issue 38).
 */
function stableId(...parts: string[]): string {
  const n = createHash("sha256").update(parts.join("\u0000")).digest().readUIntBE(0, 6);
  return String(1_000_000 + (n % 9_000_000_000_000));
}
onSimulatedReset(() => orgs.clear());

function org(apiKey: string): SimulatedKisiOrg {
  let found = orgs.get(apiKey);
  if (!found) {
    found = { members: new Map(), grants: new Map() };
    orgs.set(apiKey, found);
  }
  return found;
}

/** For tests and the simulator: turn a member's access off in "Kisi", as an admin could. */
export function disableSimulatedKisiMember(apiKey: string, email: string): void {
  const member = org(apiKey).members.get(email.toLowerCase());
  if (member) member.access_enabled = false;
}

/**
 * The simulated door provider: any key that starts with `kisi_` is accepted (as Kisi answers
 * 401 to an unknown key, so does this); answers are asynchronous like the real API.
 */
export function simulatedKisi(): KisiPort {
  const check = async (apiKey: string) => {
    await Promise.resolve();
    if (!apiKey.startsWith("kisi_"))
      throw new ProviderError("kisi", "Kisi did not accept this API key.", "declined", "HTTP 401");
  };
  return {
    mode: "simulated",
    async listPlaces(apiKey) {
      await check(apiKey);
      return SIMULATED_KISI_PLACES.map((p) => ({ ...p }));
    },
    async getPlace(apiKey, placeId) {
      await check(apiKey);
      return SIMULATED_KISI_PLACES.find((p) => p.id === placeId) ?? null;
    },
    async listLocks(apiKey, placeId) {
      await check(apiKey);
      return SIMULATED_KISI_LOCKS.filter((lock) => lock.place_id === placeId).map((lock) => ({ ...lock }));
    },
    async getEvent(apiKey, eventId) {
      await check(apiKey);
      const event = simulatedEvents.get(eventId);
      return event ? { ...event } : null;
    },
    async ensureMemberAccess(apiKey, input) {
      await check(apiKey);
      if (!SIMULATED_KISI_PLACES.some((p) => p.id === input.place_id))
        throw new ProviderError("kisi", "Kisi has no such place.", "declined", "HTTP 404");
      const state = org(apiKey);
      const email = input.email.toLowerCase();
      let member = state.members.get(email);
      if (!member) {
        member = {
          user_id: stableId(apiKey, "user", email),
          name: input.name,
          external_id: input.external_id,
          access_enabled: true,
        };
        state.members.set(email, member);
      }
      const key = `${input.place_id}:${email}`;
      let grant = state.grants.get(key);
      if (!grant) {
        grant = stableId(apiKey, "grant", input.place_id, email);
        state.grants.set(key, grant);
      }
      return { user_id: member.user_id, group_or_credential_id: grant };
    },
    async revokeMemberAccess(apiKey, input) {
      await check(apiKey);
      org(apiKey).grants.delete(`${input.place_id}:${input.email.toLowerCase()}`);
    },
    async memberAccess(apiKey, input) {
      await check(apiKey);
      const state = org(apiKey);
      const email = input.email.toLowerCase();
      const grant = state.grants.get(`${input.place_id}:${email}`);
      const member = state.members.get(email);
      return {
        has_access: Boolean(grant && member?.access_enabled),
        credential_ids: grant ? [grant] : [],
      };
    },
  };
}
