/**
 * Staff management (spec 001 §7 Staff): organisation admins list, invite, inspect and deactivate
 * the organisation's staff. Invitations use the existing invitation links (`auth/links.ts`,
 * `/set-password`); an invitation is pending while the person has set no password.
 */

import { doorAccessRecords, revokeStaffDoorAccess, visitCount } from "../access/sync";
import type { Actor } from "../auth/actor";
import { inviteEmail } from "../auth/emails";
import { createLink } from "../auth/links";
import { authorize, inOrganisation, policy } from "../auth/policy";
import { endUserSessions } from "../auth/session";
import {
  type StaffExists,
  type StaffMember,
  staffExistsInput,
  staffInviteInput,
  staffMessages,
} from "../contract/staff";
import { db } from "../db/service";
import { sendEmail } from "../email/port";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { getOrganisation } from "../organisation/service";
import { titleCase } from "../text";
import { profilePictureUrl } from "../user/picture";
import { type GymRole, isStaffRole, putRole, roleIn } from "../user/roles";
import { createUser, findUserByEmail, getUserOrNull } from "../user/service";
import { parse } from "../validation";

type RoleRecord = NonNullable<Awaited<ReturnType<typeof roleIn>>>;
type UserRecord = NonNullable<Awaited<ReturnType<typeof getUserOrNull>>>;

function manage(actor: Actor, organisationId: string) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor), "Only organisation admins manage staff.");
  return organisationId;
}

/** What the staff answer reads besides the role: their staff door access and their visits. */
interface StaffDoors {
  gymIds: string[];
  visits: number;
}

async function staffDoors(organisationId: string, userId: string): Promise<StaffDoors> {
  const [records, visits] = await Promise.all([
    doorAccessRecords(organisationId, userId),
    visitCount(organisationId, userId),
  ]);
  return {
    gymIds: records.filter((r) => r.holder === "staff" && r.status === "granted").map((r) => r.gym_id),
    visits,
  };
}

function present(
  role: RoleRecord,
  user: UserRecord,
  gyms: Map<string, string>,
  doors: StaffDoors,
  deletedAt: string | null = null,
): StaffMember {
  const everyGymTrainer =
    role.org_role !== "admin" &&
    gyms.size > 0 &&
    role.gym_roles.length === gyms.size &&
    role.gym_roles.every((g) => g.role === "personal_trainer");
  return {
    id: user.user_id,
    name: titleCase(user.name),
    email: user.email,
    role: role.org_role === "admin" ? "admin" : everyGymTrainer ? "personal_trainer" : "per_gym",
    gyms: role.gym_roles
      .filter((g) => gyms.has(g.gym_id))
      .map((g) => ({ id: g.gym_id, name: gyms.get(g.gym_id) ?? "", role: g.role })),
    pending_invite: !user.password_hash,
    invited_at: role.invited_at ?? null,
    access_enabled: doors.gymIds.length > 0,
    door_access_gym_ids: doors.gymIds,
    deleted_at: deletedAt ?? role.deleted_at ?? null,
    created_at: role.created_at,
    profile_picture: profilePictureUrl(user.profile_picture),
    visits_count: doors.visits,
  };
}

async function gymNames(organisationId: string) {
  return new Map((await listGyms(organisationId)).map((g) => [g.gym_id, g.name]));
}

/** `GET /api/organisations/{id}/staff`: everyone with a staff role, by name. */
export async function listStaff(actor: Actor, organisationId: string): Promise<StaffMember[]> {
  manage(actor, organisationId);
  const [{ data: roles }, gyms] = await Promise.all([
    db().entities.role.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
    gymNames(organisationId),
  ]);
  const staff = roles.filter((r) => !r.deleted_at && isStaffRole(r));
  if (!staff.length) return [];
  const { data: users } = await db()
    .entities.user.get(staff.map((r) => ({ user_id: r.user_id })))
    .go({ concurrency: 4 });
  const byId = new Map(users.map((u) => [u.user_id, u]));
  const listed = staff.filter((r) => byId.has(r.user_id));
  // An organisation's staff are tens: their door records and visit counts are one Query each, together.
  const doors = await Promise.all(listed.map((r) => staffDoors(organisationId, r.user_id)));
  return listed
    .map((r, i) => present(r, byId.get(r.user_id)!, gyms, doors[i]!))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `POST /api/organisations/{id}/staff-exists`: whether the email has an account (then no name is needed). */
export async function staffExists(actor: Actor, organisationId: string, body: unknown): Promise<StaffExists> {
  manage(actor, organisationId);
  const { email } = parse(staffExistsInput, body);
  const user = await findUserByEmail(email);
  if (!user) return { exists: false, is_staff: false, name: null };
  const role = await roleIn(organisationId, user.user_id);
  return { exists: true, is_staff: Boolean(role && isStaffRole(role)), name: titleCase(user.name) };
}

async function sendInvitation(organisationId: string, user: UserRecord) {
  const organisation = await getOrganisation(organisationId);
  const token = await createLink({
    purpose: "invite",
    user_id: user.user_id,
    organisation_id: organisationId,
  });
  await sendEmail(inviteEmail(user.email, titleCase(user.name), organisation.name, token));
}

/** `POST /api/organisations/{id}/staff`: invite someone (new or existing) with a role. */
export async function inviteStaff(actor: Actor, organisationId: string, body: unknown): Promise<StaffMember> {
  manage(actor, organisationId);
  const values = parse(staffInviteInput, body);
  const gyms = await gymNames(organisationId);
  let gymRoles: { gym_id: string; role: GymRole }[] = [];
  if (values.role === "personal_trainer")
    gymRoles = [...gyms.keys()].map((gym_id) => ({ gym_id, role: "personal_trainer" }));
  if (values.role === "per_gym") {
    const unknown = (values.gyms ?? []).findIndex((g) => !gyms.has(g.gym_id));
    if (unknown >= 0) throw ValidationError.field(`gyms.${unknown}.gym_id`, "Choose one of your gyms.");
    gymRoles = [...new Map((values.gyms ?? []).map((g) => [g.gym_id, g])).values()];
  }
  let user = await findUserByEmail(values.email);
  if (!user) {
    if (!values.name) throw ValidationError.field("name", "Value is required");
    user = await createUser({ email: values.email, name: values.name });
  }
  const existing = await roleIn(organisationId, user.user_id);
  if (existing && isStaffRole(existing)) throw new ConflictError(staffMessages.alreadyStaff, "already_staff");
  await putRole({
    organisation_id: organisationId,
    user_id: user.user_id,
    org_role: values.role === "admin" ? "admin" : "none",
    gym_roles: gymRoles,
    member_gym_ids: existing?.member_gym_ids ?? [],
  });
  const invitedAt = new Date().toISOString();
  await db()
    .entities.role.patch({ organisation_id: organisationId, user_id: user.user_id })
    .set({ invited_at: invitedAt })
    .remove(["deleted_at"])
    .go();
  if (!user.password_hash) await sendInvitation(organisationId, user);
  const role = await roleIn(organisationId, user.user_id);
  return present(role!, user, gyms, await staffDoors(organisationId, user.user_id));
}

export async function staffInReach(actor: Actor, userId: string) {
  const organisationId = actor.organisationId ?? "";
  manage(actor, organisationId);
  const [role, user] = await Promise.all([roleIn(organisationId, userId), getUserOrNull(userId)]);
  if (!role || !user || !isStaffRole(role)) throw new NotFoundError("staff member");
  return { organisationId, role, user };
}

/** `GET /api/staff/{id}`. */
export async function readStaff(actor: Actor, userId: string): Promise<StaffMember> {
  const { organisationId, role, user } = await staffInReach(actor, userId);
  const [gyms, doors] = await Promise.all([gymNames(organisationId), staffDoors(organisationId, userId)]);
  return present(role, user, gyms, doors);
}

/** `POST /api/staff/{id}/resend-invitation`: a new invitation link while the invitation is pending. */
export async function resendInvitation(actor: Actor, userId: string): Promise<StaffMember> {
  const { organisationId, role, user } = await staffInReach(actor, userId);
  if (user.password_hash) throw new ConflictError(staffMessages.notPending, "invitation_accepted");
  await sendInvitation(organisationId, user);
  const [gyms, doors] = await Promise.all([gymNames(organisationId), staffDoors(organisationId, userId)]);
  return present(role, user, gyms, doors);
}

/**
 * `DELETE /api/staff/{id}`: deactivates a staff member: their staff roles go (counters in the same
 * write), a membership at the gyms stays, every session of theirs ends. The last organisation
 * admin cannot be removed; nor can you remove yourself.
 */
export async function deactivateStaff(actor: Actor, userId: string): Promise<StaffMember> {
  const { organisationId, role, user } = await staffInReach(actor, userId);
  if (userId === actor.userId) throw new ConflictError(staffMessages.yourself, "remove_yourself");
  if (role.org_role === "admin") {
    const { data: roles } = await db()
      .entities.role.query.primary({ organisation_id: organisationId })
      .go({ pages: "all" });
    const admins = roles.filter((r) => !r.deleted_at && r.org_role === "admin");
    if (admins.length <= 1) throw new ConflictError(staffMessages.lastAdmin, "last_admin");
  }
  const gyms = await gymNames(organisationId);
  const before = present(role, user, gyms, await staffDoors(organisationId, userId));
  await putRole({
    organisation_id: organisationId,
    user_id: userId,
    org_role: "none",
    gym_roles: [],
    member_gym_ids: role.member_gym_ids,
  });
  const deletedAt = new Date().toISOString();
  if (role.member_gym_ids.length === 0) {
    await db()
      .entities.role.patch({ organisation_id: organisationId, user_id: userId })
      .set({ deleted_at: deletedAt })
      .go();
  }
  await endUserSessions(userId);
  await revokeStaffDoorAccess(organisationId, userId);
  return { ...before, access_enabled: false, door_access_gym_ids: [], deleted_at: deletedAt };
}
