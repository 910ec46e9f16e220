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
import { correctAccount, deskCorrectable } from "../user/desk-correction";
import { getProfile, type ProfileChanges, saveProfile } from "../user/profile";
import { getUserOrNull } from "../user/service";
import { parse } from "../validation";
import { recordActivity } from "./activity";
import { readMember } from "./read";
import { indexMember } from "./search-index";
import { memberInReach } from "./service";

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
  const shownName = member.name || user.name;
  const name = values.name === undefined || values.name === titleCase(shownName) ? shownName : values.name;
  const email = values.email ?? user.email;
  // The login belongs to the person: staff correct it only while the account is this
  // organisation's alone and was never used (docs/access-control.md "Whose account it is").
  const correctable =
    email !== user.email || name !== user.name ? await deskCorrectable(organisationId, user) : false;
  if (email !== user.email && !correctable)
    throw ValidationError.field("email", memberMessages.loginEmailIsTheirs);

  const profile = (await getProfile(organisationId, userId)) ?? {};
  const next: ProfileChanges = {};
  const put = <K extends keyof ProfileChanges>(key: K, value: ProfileChanges[K] | undefined) => {
    if (value !== undefined) next[key] = value;
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
  const changed: ProfileChanges = {};
  for (const [key, value] of Object.entries(next) as [keyof ProfileChanges, string | null][]) {
    const before = (profile as Record<string, unknown>)[key];
    if (text(before) === text(value)) continue;
    changes.push({ field: key, from: text(before), to: text(value) });
    (changed as Record<string, unknown>)[key] = value;
  }
  if (name !== shownName) changes.push({ field: "name", from: shownName, to: name });
  if (email !== user.email) changes.push({ field: "email", from: user.email, to: email });
  // The account first: an address another account uses is refused before anything is written.
  if (correctable && (email !== user.email || name !== user.name))
    await correctAccount(user, { name, email });
  if (Object.keys(changed).length) await saveProfile(organisationId, userId, changed);

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
  if (name !== shownName || email !== user.email) {
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
