/**
 * `GET /api/active-users` (organisation admins, /active-user-debugging): every member counted as
 * active by the door standing rule, with its reason, and where the door access we hold disagrees
 * with standing (a credential without standing, standing without a credential). Each mismatch is
 * fixed by re-syncing the member (POST /api/users/{id}/recreate-kisi-login).
 *
 * Paged by member (docs/access-control.md "Active users"): a page is `per_page` members in user id
 * order (one Query of the member partition after the cursor), each member's memberships (one
 * Query of the subscriptions' by-member index each, in parallel) and the door-access records of
 * the page's user id range (one Query), so a page costs at most per_page + 4 requests whatever
 * the organisation's size. `next_cursor` is the last member's user id.
 */
import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffOrganisation } from "../auth/scope";
import { businessNow } from "../clock";
import type { ActiveUser, ActiveUsers, DoorMismatch } from "../contract/access";
import { db } from "../db/service";
import { ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { getOrganisation } from "../organisation/service";
import type { SubscriptionRecord } from "../subscription/store";
import { titleCase } from "../text";
import { standingByGym } from "./standing";

export const ACTIVE_USERS_PER_PAGE = 25;

const encodeCursor = (userId: string) => Buffer.from(userId, "utf8").toString("base64url");
function decodeCursor(cursor: string | undefined): string | null {
  if (!cursor) return null;
  const userId = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(userId))
    throw ValidationError.field("cursor", "The page cursor is not valid; start from the first page");
  return userId;
}

export async function activeUsers(
  actor: Actor,
  query: { cursor?: string; per_page?: number } = {},
): Promise<ActiveUsers> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may see active users.");
  const after = decodeCursor(query.cursor);
  const perPage = query.per_page ?? ACTIVE_USERS_PER_PAGE;
  const members = db().entities.member.query.primary({ organisation_id: organisationId });
  const page = await (after ? members.gt({ user_id: after }) : members).go({ limit: perPage });
  const userIds = page.data.map((m) => m.user_id);
  const last = page.cursor ? userIds[userIds.length - 1] : null;
  // The door records of this page's user id range: after the previous page's last user, up to
  // this page's last (or the end), so a record without a member is still read on exactly one page.
  const doors = db().entities.doorAccess.query.primary({ organisation_id: organisationId });
  const from = after ? { user_id: `${after}~` } : { user_id: "" };
  const [subsByUser, { data: records }, gyms, org, now] = await Promise.all([
    Promise.all(
      userIds.map(async (user_id) => {
        const { data } = await db()
          .entities.subscription.query.byMember({ organisation_id: organisationId, user_id })
          .go({ pages: "all" });
        return data;
      }),
    ),
    (last ? doors.between(from, { user_id: `${last}~` }) : doors.gte(from)).go({ pages: "all" }),
    listGyms(organisationId),
    getOrganisation(organisationId),
    businessNow(),
  ]);
  const subs = subsByUser.flat();
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
  return {
    active: active.sort(byName),
    mismatches: mismatches.sort(byName),
    next_cursor: last ? encodeCursor(last) : null,
    per_page: perPage,
  };
}
