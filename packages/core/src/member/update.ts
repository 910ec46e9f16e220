const MEMBER_CONSENT_FIELDS = [
  "email_notifications_enabled",
  "push_notifications_enabled",
  "payment_reminders",
] as const;

/** `PUT /api/members/{id}`: the staff edit, with an activity entry naming each changed field. */
import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds } from "../auth/scope";
import { type Member, memberFieldLabels, memberMessages, memberUpdateInput } from "../contract/member";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { titleCase } from "../text";
import { findUserByEmail, getUserOrNull } from "../user/service";
import { parse } from "../validation";
import { recordActivity } from "./activity";
import { readMember } from "./read";
import { indexMember } from "./search-index";
import { memberInReach } from "./service";

type UserRecord = NonNullable<Awaited<ReturnType<typeof getUserOrNull>>>;

/** `PUT /api/members/{id}`: organisation admins and admins of the member's gym (trainers read only). */
export async function updateMember(actor: Actor, userId: string, body: unknown): Promise<Member> {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  const values = parse(memberUpdateInput, body);
  const mine = adminGymIds(actor);
  authorize(
    actor.orgRole === "admin" ||
      member.gym_ids.some((g) => mine.includes(g)) ||
      (sub ? mine.includes(sub.gym_id) : false),
    "Only an admin of this member's gym can change their details.",
  );
  // The notification switches are the member's consent: only they change them (docs/communications.md).
  const consent = MEMBER_CONSENT_FIELDS.filter((field) => values[field] !== undefined);
  if (consent.length)
    throw new ValidationError(Object.fromEntries(consent.map((f) => [f, [memberMessages.memberConsent]])));
  const user = await getUserOrNull(userId);
  if (!user) throw new NotFoundError("member");
  // The page shows names title-cased: sending back the shown name is not a rename.
  const name = values.name === undefined || values.name === titleCase(user.name) ? user.name : values.name;
  const email = values.email ?? user.email;
  if (email !== user.email) {
    const other = await findUserByEmail(email);
    if (other && other.user_id !== userId)
      throw ValidationError.field("email", "Another account already uses this email.");
  }
  const next: Partial<UserRecord> = { name, email };
  const put = <K extends keyof UserRecord>(key: K, value: UserRecord[K] | null | undefined) => {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  };
  put("mobile_number", values.mobile_number);
  put("dob", values.dob);
  put("address", values.address);
  put("suburb", values.suburb);
  put("city", values.city);
  put("post_code", values.post_code);
  put("emergency_contact_name", values.emergency_contact?.name);
  put("emergency_contact_email", values.emergency_contact?.email);
  put("emergency_contact_mobile_number", values.emergency_contact?.mobile_number);
  put("emergency_contact_relationship", values.emergency_contact?.relationship);
  if (values.dob && values.dob > new Date().toISOString().slice(0, 10))
    throw ValidationError.field("dob", memberMessages.dobFuture);

  const changes: { field: string; from?: string; to?: string }[] = [];
  const text = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : String(v));
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(next)) {
    const before = (user as Record<string, unknown>)[key];
    if (text(before) === text(value)) continue;
    changes.push({ field: key, from: text(before), to: text(value) });
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  if (Object.keys(set).length || remove.length) {
    let patch = db()
      .entities.user.patch({ user_id: userId })
      .set(set as never);
    if (remove.length) patch = patch.remove(remove as never);
    await patch.go();
  }

  const memberSet: Record<string, unknown> = {};
  const memberRemove: string[] = [];
  if (values.notes !== undefined && text(values.notes) !== text(member.notes)) {
    changes.push({ field: "notes", from: text(member.notes), to: text(values.notes) });
    if (values.notes === null) memberRemove.push("notes");
    else memberSet.notes = values.notes;
  }
  if (values.tags !== undefined && values.tags.join(", ") !== (member.tags ?? []).join(", ")) {
    changes.push({
      field: "tags",
      from: text((member.tags ?? []).join(", ")),
      to: text(values.tags.join(", ")),
    });
    memberSet.tags = values.tags;
  }
  if (Object.keys(memberSet).length || memberRemove.length) {
    let patch = db()
      .entities.member.patch({ organisation_id: organisationId, user_id: userId })
      .set(memberSet as never);
    if (memberRemove.length) patch = patch.remove(memberRemove as never);
    await patch.go();
  }
  if (name !== user.name || email !== user.email) {
    await indexMember({ organisation_id: organisationId, user_id: userId, name, email });
  }
  if (changes.length) {
    await recordActivity({
      organisation_id: organisationId,
      user_id: userId,
      kind: "member_updated",
      summary:
        changes.length === 1 && changes[0].field === "notes"
          ? "Notes edited"
          : `Details edited: ${changes.map((c) => memberFieldLabels[c.field] ?? c.field).join(", ")}`,
      actor_id: actor.userId,
      changes,
    });
  }
  return readMember(actor, userId);
}
