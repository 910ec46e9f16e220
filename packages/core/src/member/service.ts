/**
 * Staff calls on members (spec 001 §7 Members; docs/members.md), one file each: the list with its
 * filters and sorts (list.ts), one member with their latest subscription and its derived states
 * (read.ts, the states in state.ts), the staff edit with an activity entry naming each changed
 * field (update.ts), soft deletion and restoring (delete.ts), the activity log (activity-list.ts).
 * This file is what they share: reading a member within reach. Every call is scoped to the actor's
 * organisation (another organisation's ids are not found) and, for trainers and gym admins, to
 * members of their gyms.
 */

import type { EntityItem } from "electrodb";
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { findSubscriptions, memberSubscriptions, type SubscriptionRecord } from "../subscription/store";
import { roleIn } from "../user/roles";
import type { memberEntity } from "./entity";
import { indexMember } from "./search-index";

export type MemberRecord = EntityItem<typeof memberEntity>;

/** The member record of someone in the organisation; a member from before the member record existed is indexed on first sight. */
export async function findMember(organisationId: string, userId: string): Promise<MemberRecord | null> {
  const { data } = await db().entities.member.get({ organisation_id: organisationId, user_id: userId }).go();
  if (data) return data;
  const role = await roleIn(organisationId, userId);
  if (!role || role.member_gym_ids.length === 0) return null;
  await indexMember({ organisation_id: organisationId, user_id: userId, gym_ids: role.member_gym_ids });
  const { data: made } = await db()
    .entities.member.get({ organisation_id: organisationId, user_id: userId })
    .go();
  return made ?? null;
}

/** Organisation admins reach every member; other staff the members of their gyms. */
export function reaches(actor: Actor, member: MemberRecord, sub?: SubscriptionRecord | null): boolean {
  if (actor.orgRole === "admin") return true;
  const mine = staffGymIds(actor);
  return member.gym_ids.some((g) => mine.includes(g)) || (sub ? mine.includes(sub.gym_id) : false);
}

export async function memberInReach(actor: Actor, userId: string) {
  const organisationId = staffOrganisation(actor);
  const member = await findMember(organisationId, userId);
  if (!member) throw new NotFoundError("member");
  const sub = await latestSubscriptionOf(member);
  if (!reaches(actor, member, sub)) throw new NotFoundError("member");
  return { organisationId, member, sub };
}

async function latestSubscriptionOf(member: MemberRecord): Promise<SubscriptionRecord | null> {
  if (member.latest_subscription_id) {
    const found = await findSubscriptions([
      { organisation_id: member.organisation_id, subscription_id: member.latest_subscription_id },
    ]);
    const sub = found.get(member.latest_subscription_id);
    if (sub) return sub;
  }
  const subs = await memberSubscriptions(member.organisation_id, member.user_id);
  return subs[0] ?? null;
}
