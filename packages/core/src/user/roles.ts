import { db } from "../db/service";

export type OrgRole = "admin" | "none";
export type GymRole = "admin" | "personal_trainer";

export async function putRole(input: {
  organisation_id: string;
  user_id: string;
  org_role?: OrgRole;
  gym_roles?: { gym_id: string; role: GymRole }[];
  member_gym_ids?: string[];
}) {
  const { data } = await db()
    .entities.role.put({
      organisation_id: input.organisation_id,
      user_id: input.user_id,
      org_role: input.org_role ?? "none",
      gym_roles: input.gym_roles ?? [],
      member_gym_ids: input.member_gym_ids ?? [],
    })
    .go();
  return data;
}

/** A user's role records in every organisation they belong to (one index query). */
export async function rolesOfUser(userId: string) {
  const { data } = await db().entities.role.query.byUser({ user_id: userId }).go({ pages: "all" });
  return data.filter((role) => !role.deleted_at);
}

export async function roleIn(organisationId: string, userId: string) {
  const { data } = await db().entities.role.get({ organisation_id: organisationId, user_id: userId }).go();
  return data && !data.deleted_at ? data : null;
}

export function isStaffRole(role: { org_role: OrgRole; gym_roles: { role: GymRole }[] }): boolean {
  return role.org_role === "admin" || role.gym_roles.length > 0;
}
