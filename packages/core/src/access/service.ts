/**
 * Door access calls (docs/access-control.md): the member's standing and access, Kisi's own view,
 * re-sync. A staff member's door access is staff/door-access.ts.
 */
import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds } from "../auth/scope";
import { passStanding } from "../billing/pass";
import { hasStanding } from "../billing/subscription-state";
import { businessNow } from "../clock";
import type { AccessCredential, DoorAccessEntry, MemberAccessControl } from "../contract/access";
import { listGyms } from "../gym/service";
import { memberInReach } from "../member/service";
import { getOrganisation } from "../organisation/service";
import { kisiKeyOf } from "../organisation/settings";
import { kisiProvider } from "../providers/kisi/index";
import { factsOf } from "../subscription/states";
import { type DoorAccessRecord, doorAccessRecords, syncDoorAccess } from "./sync";

export function presentDoorAccess(r: DoorAccessRecord, gymName: string | null): DoorAccessEntry {
  return {
    gym_id: r.gym_id,
    gym_name: gymName,
    place_id: r.place_id ?? null,
    holder: r.holder,
    status: r.status,
    credential_id: r.status === "granted" ? (r.credential_id ?? null) : null,
    standing: r.standing,
    reason: r.reason,
    synced_at: r.synced_at,
    last_error: r.last_error ?? null,
  };
}

/** The organisation's gyms by id. */
export async function gymNames(organisationId: string) {
  return new Map((await listGyms(organisationId)).map((g) => [g.gym_id, g]));
}

/** `GET /api/members/{id}/access-control`. */
export async function memberAccessControl(actor: Actor, userId: string): Promise<MemberAccessControl> {
  const { organisationId, sub } = await memberInReach(actor, userId);
  const [org, records, gyms, now] = await Promise.all([
    getOrganisation(organisationId),
    doorAccessRecords(organisationId, userId),
    gymNames(organisationId),
    businessNow(),
  ]);
  const standing = sub
    ? passStanding(sub, now, hasStanding(factsOf(sub, now)))
    : { standing: false, reason: "No membership" };
  return {
    user_id: userId,
    access_control_enabled: Boolean(org.access_control),
    standing: standing.standing,
    reason: standing.reason,
    entries: records.map((r) => presentDoorAccess(r, gyms.get(r.gym_id)?.name ?? null)),
  };
}

/** `GET /api/members/{id}/access-control-credentials`: Kisi's answer for each place the member has access records at. */
export async function memberAccessCredentials(actor: Actor, userId: string): Promise<AccessCredential[]> {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  const org = await getOrganisation(organisationId);
  if (!org.access_control) return [];
  const gyms = await gymNames(organisationId);
  const gymIds = new Set([...member.gym_ids, ...(sub ? [sub.gym_id] : [])]);
  const apiKey = await kisiKeyOf(organisationId);
  const out: AccessCredential[] = [];
  for (const gymId of gymIds) {
    const gym = gyms.get(gymId);
    const placeId = gym?.kisi_place?.place_id;
    if (!gym || !placeId) continue;
    const answer = await kisiProvider().memberAccess(apiKey, { place_id: placeId, email: member.email });
    out.push({ gym_id: gymId, gym_name: gym.name, place_id: placeId, ...answer });
  }
  return out;
}

/** Admins of the member's gym (or the organisation) change door access; trainers only read it. */
function mayChangeDoorAccess(actor: Actor, gymIds: string[]) {
  const mine = adminGymIds(actor);
  authorize(
    actor.orgRole === "admin" || gymIds.some((g) => mine.includes(g)),
    "Only an admin of this member's gym can change their door access.",
  );
}

/**
 * `POST /api/users/{id}/recreate-kisi-login`: takes the member's Kisi access away and gives it
 * again when they have standing (a fresh credential); also the "re-sync door access" action.
 */
export async function recreateKisiLogin(actor: Actor, userId: string): Promise<MemberAccessControl> {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  mayChangeDoorAccess(actor, [...member.gym_ids, ...(sub ? [sub.gym_id] : [])]);
  await syncDoorAccess(organisationId, userId, { recreate: true });
  return memberAccessControl(actor, userId);
}
