/**
 * `GET /api/active-users` (organisation admins, /active-user-debugging): every member counted as
 * active by the door standing rule, with its reason, and where the door access we hold disagrees
 * with standing (a credential without standing, standing without a credential). Each mismatch is
 * fixed by re-syncing the member (POST /api/users/{id}/recreate-kisi-login).
 */
import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { businessNow } from "../clock";
import type { ActiveUser, ActiveUsers, DoorMismatch } from "../contract/access";
import { db } from "../db/service";
import { listGyms } from "../gym/service";
import { getOrganisation } from "../organisation/service";
import { staffOrganisation } from "../payment/list";
import type { SubscriptionRecord } from "../subscription/store";
import { titleCase } from "../text";
import { doorAccessRecords, standingByGym } from "./sync";

export async function activeUsers(actor: Actor): Promise<ActiveUsers> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may see active users.");
  const [{ data: subs }, records, gyms, org, now] = await Promise.all([
    db().entities.subscription.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
    doorAccessRecords(organisationId),
    listGyms(organisationId),
    getOrganisation(organisationId),
    businessNow(),
  ]);
  const gymById = new Map(gyms.map((g) => [g.gym_id, g]));
  const byUser = new Map<string, SubscriptionRecord[]>();
  for (const sub of subs) byUser.set(sub.user_id, [...(byUser.get(sub.user_id) ?? []), sub]);
  const memberRecords = records.filter((r) => r.holder === "member");
  const recordOf = (userId: string, gymId: string) =>
    memberRecords.find((r) => r.user_id === userId && r.gym_id === gymId);

  const active: ActiveUser[] = [];
  const mismatches: DoorMismatch[] = [];
  const seen = new Set<string>();
  for (const [userId, mine] of byUser) {
    const latest = mine[mine.length - 1];
    for (const [gymId, standing] of standingByGym(mine, now)) {
      seen.add(`${userId}#${gymId}`);
      const record = recordOf(userId, gymId);
      const who = {
        user_id: userId,
        name: titleCase(latest.member_name),
        email: latest.member_email,
        gym_id: gymId,
        gym_name: gymById.get(gymId)?.name ?? null,
        reason: standing.reason,
        door_status: record?.status ?? ("none" as const),
      };
      if (standing.standing) active.push(who);
      const doorsManaged = Boolean(org.access_control && gymById.get(gymId)?.kisi_place);
      if (record?.status === "granted" && !standing.standing)
        mismatches.push({ ...who, kind: "credential_without_standing" });
      else if (standing.standing && doorsManaged && record?.status !== "granted")
        mismatches.push({ ...who, kind: "standing_without_credential" });
    }
  }
  // Access still held for someone with no membership at that gym at all.
  for (const r of memberRecords) {
    if (r.status !== "granted" || seen.has(`${r.user_id}#${r.gym_id}`)) continue;
    const sub = byUser.get(r.user_id)?.[0];
    mismatches.push({
      user_id: r.user_id,
      name: sub ? titleCase(sub.member_name) : r.user_id,
      email: sub?.member_email ?? "",
      gym_id: r.gym_id,
      gym_name: gymById.get(r.gym_id)?.name ?? null,
      kind: "credential_without_standing",
      reason: "No membership at this gym",
      door_status: r.status,
    });
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return { active: active.sort(byName), mismatches: mismatches.sort(byName) };
}
