import { db } from "../db/service";
import { ConflictError } from "../errors";
import { peopleDelta } from "../gym/counts";
import { indexMember } from "../member/search-index";

export type OrgRole = "admin" | "none";
export type GymRole = "admin" | "personal_trainer";

/**
 * Writes a user's role in an organisation and, in the same transaction, the staff and member
 * counters it changes (gym/counts.ts). The role write is conditioned on the record being as read,
 * so two writes at once cannot both count from the same starting point; the loser retries.
 */
export async function putRole(input: {
  organisation_id: string;
  user_id: string;
  org_role?: OrgRole;
  gym_roles?: { gym_id: string; role: GymRole }[];
  member_gym_ids?: string[];
}) {
  const next = {
    organisation_id: input.organisation_id,
    user_id: input.user_id,
    org_role: input.org_role ?? "none",
    gym_roles: input.gym_roles ?? [],
    member_gym_ids: input.member_gym_ids ?? [],
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const { data: before } = await db()
      .entities.role.get({ organisation_id: input.organisation_id, user_id: input.user_id })
      .go();
    const delta = peopleDelta(before, next);
    const { canceled } = await db()
      .transaction.write(({ role, gymPeople }) => [
        role
          .put(next)
          .where((attr, op) =>
            before ? op.eq(attr.updated_at, before.updated_at) : op.notExists(attr.user_id),
          )
          .commit(),
        ...[...delta].map(([scope, change]) =>
          gymPeople.update({ organisation_id: input.organisation_id, scope }).add(change).commit(),
        ),
      ])
      .go();
    if (!canceled) {
      // Members are listed and searched from the member record and search index (member/).
      if (next.member_gym_ids.length)
        await indexMember({
          organisation_id: next.organisation_id,
          user_id: next.user_id,
          gym_ids: next.member_gym_ids,
        });
      return { ...next };
    }
  }
  throw new ConflictError("The role changed while it was being saved. Please try again.");
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
