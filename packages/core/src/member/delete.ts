/** Soft deletion and restoring of a member (organisation admins). */
import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { businessNow } from "../clock";
import { type Member, memberMessages } from "../contract/member";
import { db } from "../db/service";
import { ConflictError } from "../errors";
import { recordActivity } from "./activity";
import { readMember } from "./read";
import { indexMember, unindexMember } from "./search-index";
import { memberInReach } from "./service";
import { stillCharges } from "./state";

/** `DELETE /api/members/{id}`: organisation admins; refused (409) while the membership still charges. */
export async function deleteMember(actor: Actor, userId: string) {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  authorize(actor.orgRole === "admin", "Only an organisation admin can delete a member.");
  if (member.deleted_at) return { id: userId, deleted: true as const };
  const now = await businessNow();
  if (stillCharges(sub, now)) throw new ConflictError(memberMessages.deleteCharging, "membership_charging");
  const at = new Date().toISOString();
  await db()
    .entities.member.patch({ organisation_id: organisationId, user_id: userId })
    .set({ deleted_at: at, deleted_by: actor.userId })
    .go();
  await unindexMember(organisationId, userId, member.search_terms ?? []);
  await recordActivity({
    organisation_id: organisationId,
    user_id: userId,
    kind: "member_deleted",
    summary: "Member deleted",
    actor_id: actor.userId,
  });
  return { id: userId, deleted: true as const };
}

/** `POST /api/members/{id}/restore`: organisation admins bring a deleted member back. */
export async function restoreMember(actor: Actor, userId: string): Promise<Member> {
  const { organisationId, member } = await memberInReach(actor, userId);
  authorize(actor.orgRole === "admin", "Only an organisation admin can restore a member.");
  if (member.deleted_at) {
    await db()
      .entities.member.patch({ organisation_id: organisationId, user_id: userId })
      .remove(["deleted_at", "deleted_by"])
      .go();
    await indexMember({ organisation_id: organisationId, user_id: userId });
    await recordActivity({
      organisation_id: organisationId,
      user_id: userId,
      kind: "member_restored",
      summary: "Member restored",
      actor_id: actor.userId,
    });
  }
  return readMember(actor, userId);
}
