import { db } from "../db/service";
import { ORGANISATION_SCOPE } from "./count-entity";

type Counter = "admins" | "staff" | "members";
/** scope (a gym id or the organisation) → counter → change. */
export type PeopleDelta = Map<string, Partial<Record<Counter, number>>>;

interface RoleShape {
  org_role: "admin" | "none";
  gym_roles: { gym_id: string }[];
  member_gym_ids: string[];
  deleted_at?: string | null;
}

function contribution(role: RoleShape | null | undefined, sign: 1 | -1, into: PeopleDelta) {
  if (!role || role.deleted_at) return;
  const bump = (scope: string, counter: Counter) => {
    const row = into.get(scope) ?? {};
    row[counter] = (row[counter] ?? 0) + sign;
    into.set(scope, row);
  };
  if (role.org_role === "admin") bump(ORGANISATION_SCOPE, "admins");
  else for (const g of new Set(role.gym_roles.map((r) => r.gym_id))) bump(g, "staff");
  for (const gymId of new Set(role.member_gym_ids)) bump(gymId, "members");
}

/** What a role write changes in the counters (zero changes left out). */
export function peopleDelta(before: RoleShape | null | undefined, after: RoleShape | null): PeopleDelta {
  const delta: PeopleDelta = new Map();
  contribution(before, -1, delta);
  contribution(after, 1, delta);
  for (const [scope, row] of delta) {
    for (const key of Object.keys(row) as Counter[]) if (row[key] === 0) delete row[key];
    if (Object.keys(row).length === 0) delta.delete(scope);
  }
  return delta;
}

/**
 * Staff and member counts of every gym of an organisation: one query on its counter rows
 * (a handful: one per gym and one for the organisation), not on its people.
 */
export async function countsByGym(organisationId: string) {
  const { data } = await db()
    .entities.gymPeople.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  const rows = new Map(data.map((row) => [row.scope, row]));
  const admins = Math.max(0, rows.get(ORGANISATION_SCOPE)?.admins ?? 0);
  return (gymId: string) => ({
    staff_count: admins + Math.max(0, rows.get(gymId)?.staff ?? 0),
    members_count: Math.max(0, rows.get(gymId)?.members ?? 0),
  });
}

/**
 * Rebuilds an organisation's counters from its role records (a repair, and how records written
 * before the counters existed are counted): one query on the roles, one write per counter row.
 */
export async function recountPeople(organisationId: string) {
  const { data: roles } = await db()
    .entities.role.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  const totals: PeopleDelta = new Map();
  for (const role of roles) contribution(role, 1, totals);
  const { data: existing } = await db()
    .entities.gymPeople.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  for (const row of existing) if (!totals.has(row.scope)) totals.set(row.scope, {});
  for (const [scope, row] of totals) {
    await db()
      .entities.gymPeople.put({
        organisation_id: organisationId,
        scope,
        admins: row.admins ?? 0,
        staff: row.staff ?? 0,
        members: row.members ?? 0,
      })
      .go();
  }
}
