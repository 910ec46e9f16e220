/**
 * Staff management (spec 001 §7 Staff): organisation admins list, invite, inspect and deactivate
 * the organisation's staff. Invitations use the existing invitation links (`auth/links.ts`,
 * `/set-password`); an invitation is pending while the person has set no password.
 */

import { doorAccessRecords, revokeStaffDoorAccess, visitCount } from "../access/sync";
import { type Actor, organisationGyms } from "../auth/actor";
import { inviteEmail } from "../auth/emails";
import { createLink } from "../auth/links";
import { authorize, inOrganisation, policy } from "../auth/policy";
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
import {
  claimInvitation,
  findInvitation,
  type InvitationRecord,
  invite,
  sendInvitationEmail,
  staffInvitations,
  withdrawInvitation,
} from "../invitation/service";
import { getOrganisation } from "../organisation/service";
import { titleCase } from "../text";
import { profilePicturesOf } from "../user/picture";
import { type GymRole, isStaffRole, putRole, roleIn, staffRolesOf } from "../user/roles";
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
  role: Pick<RoleRecord, "org_role" | "gym_roles" | "created_at"> & {
    invited_at?: string;
    deleted_at?: string;
  },
  user: Pick<UserRecord, "user_id" | "name" | "email" | "password_hash">,
  gyms: Map<string, string>,
  doors: StaffDoors,
  deletedAt: string | null = null,
  picture: string | null = null,
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
    profile_picture: picture,
    visits_count: doors.visits,
  };
}

/** The organisation's gym names by id (its admin's gyms as read with the session: `organisationGyms`). */
async function gymNames(actor: Actor, organisationId: string) {
  return new Map((await organisationGyms(actor, organisationId)).map((g) => [g.gym_id, g.name]));
}

/** `GET /api/organisations/{id}/staff`: everyone with a staff role, by name. */
export async function listStaff(actor: Actor, organisationId: string): Promise<StaffMember[]> {
  manage(actor, organisationId);
  const [staff, gyms] = await Promise.all([staffRolesOf(organisationId), gymNames(actor, organisationId)]);
  const invited = (await staffInvitations(organisationId)).filter(
    (i) => !staff.some((r) => r.user_id === i.user_id),
  );
  const waiting = invited.map((i) => presentInvitation(i, gyms));
  if (!staff.length) return waiting;
  const { data: users } = await db()
    .entities.user.get(staff.map((r) => ({ user_id: r.user_id })))
    .go({ concurrency: 4 });
  const byId = new Map(users.map((u) => [u.user_id, u]));
  const listed = staff.filter((r) => byId.has(r.user_id));
  // An organisation's staff are tens: their door records and visit counts are one Query each, together.
  const [doors, pictures] = await Promise.all([
    Promise.all(listed.map((r) => staffDoors(organisationId, r.user_id))),
    profilePicturesOf(
      organisationId,
      listed.map((r) => r.user_id),
    ),
  ]);
  return [
    ...listed.map((r, i) =>
      present(r, byId.get(r.user_id)!, gyms, doors[i]!, null, pictures.get(r.user_id) ?? null),
    ),
    ...waiting,
  ].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `POST /api/organisations/{id}/staff-exists`: whether the address is someone this organisation
 * knows (staff or member here; then no name is needed) and whether they are staff. It says
 * nothing of accounts elsewhere: an address with an account at another organisation only is
 * answered exactly as one with no account (docs/access-control.md "Enrolment needs the person").
 */
export async function staffExists(actor: Actor, organisationId: string, body: unknown): Promise<StaffExists> {
  manage(actor, organisationId);
  const { email } = parse(staffExistsInput, body);
  const unknown = { exists: false, is_staff: false, name: null };
  const user = await findUserByEmail(email);
  if (!user) return unknown;
  const [role, member] = await Promise.all([
    roleIn(organisationId, user.user_id),
    db().entities.member.get({ organisation_id: organisationId, user_id: user.user_id }).go(),
  ]);
  if (!role) return unknown;
  const name = member.data?.name || (isStaffRole(role) ? user.name : "");
  return { exists: true, is_staff: isStaffRole(role), name: name ? titleCase(name) : null };
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

/** A waiting invitation as the staff list shows it: only what staff typed. */
function presentInvitation(invitation: InvitationRecord, gyms: Map<string, string>): StaffMember {
  return present(
    {
      org_role: invitation.org_role ?? "none",
      gym_roles: invitation.gym_roles ?? [],
      created_at: invitation.invited_at,
      invited_at: invitation.invited_at,
    },
    { user_id: invitation.user_id, name: invitation.name, email: invitation.email, password_hash: undefined },
    gyms,
    { gymIds: [], visits: 0 },
  );
}

/**
 * `POST /api/organisations/{id}/staff`: invite someone with a role. An address with no account
 * gets one made by this invitation (the role now, a link to set a password); anyone who already has
 * an account gets an invitation to accept, and the role only when they do. Either way one
 * invitation at a time per person (parallel invites: one email, the others 409).
 */
export async function inviteStaff(actor: Actor, organisationId: string, body: unknown): Promise<StaffMember> {
  manage(actor, organisationId);
  const values = parse(staffInviteInput, body);
  // The address's account is looked up beside the gyms (nothing about it depends on them).
  const [gyms, found] = await Promise.all([gymNames(actor, organisationId), findUserByEmail(values.email)]);
  let gymRoles: { gym_id: string; role: GymRole }[] = [];
  if (values.role === "personal_trainer")
    gymRoles = [...gyms.keys()].map((gym_id) => ({ gym_id, role: "personal_trainer" }));
  if (values.role === "per_gym") {
    const unknown = (values.gyms ?? []).findIndex((g) => !gyms.has(g.gym_id));
    if (unknown >= 0) throw ValidationError.field(`gyms.${unknown}.gym_id`, "Choose one of your gyms.");
    gymRoles = [...new Map((values.gyms ?? []).map((g) => [g.gym_id, g])).values()];
  }
  const orgRole = values.role === "admin" ? "admin" : "none";
  let user = found;
  const existing = user ? await roleIn(organisationId, user.user_id) : null;
  if (existing && isStaffRole(existing)) throw new ConflictError(staffMessages.alreadyStaff, "already_staff");
  // The name is what staff know the person by: typed, unless they are already someone here.
  const known = existing
    ? (await db().entities.member.get({ organisation_id: organisationId, user_id: user!.user_id }).go()).data
    : null;
  const name = values.name ?? known?.name;
  if (!name) throw ValidationError.field("name", "Value is required");
  let created = false;
  if (!user) {
    try {
      // Looked up above: the transaction's claim of the address still refuses a second account.
      user = await createUser({ email: values.email, name, checked: true });
      created = true;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      user = await findUserByEmail(values.email);
      if (!user) throw error;
    }
  }
  const invitation = {
    organisation_id: organisationId,
    user_id: user.user_id,
    kind: "staff" as const,
    email: user.email,
    name,
    org_role: orgRole as "admin" | "none",
    gym_roles: gymRoles,
    invited_by: actor.userId,
  };
  if (!created) {
    // An existing account: nothing is theirs here until they accept.
    const record = await invite(invitation);
    return presentInvitation(record, gyms);
  }
  // A new account, made by this invitation: one claim per person, so parallel invites send one email.
  await claimInvitation(invitation);
  await putRole({
    organisation_id: organisationId,
    user_id: user.user_id,
    org_role: orgRole,
    gym_roles: gymRoles,
    member_gym_ids: [],
  });
  await db()
    .entities.role.patch({ organisation_id: organisationId, user_id: user.user_id })
    .set({ invited_at: new Date().toISOString() })
    .remove(["deleted_at"])
    .go();
  await sendInvitation(organisationId, user);
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

/**
 * A staff member of the actor's organisation, or a waiting staff invitation there (the staff list's
 * pending rows): the role, the invitation and the user read in one round. Anything else is 404.
 */
async function staffOrInvitation(actor: Actor, userId: string) {
  const organisationId = actor.organisationId ?? "";
  manage(actor, organisationId);
  const [role, invitation, user] = await Promise.all([
    roleIn(organisationId, userId),
    findInvitation(organisationId, userId),
    getUserOrNull(userId),
  ]);
  if (role && user && isStaffRole(role)) return { kind: "staff" as const, organisationId, role, user };
  if (invitation?.kind === "staff") return { kind: "invitation" as const, organisationId, invitation };
  throw new NotFoundError("staff member");
}

/** `GET /api/staff/{id}`. */
export async function readStaff(actor: Actor, userId: string): Promise<StaffMember> {
  const found = await staffOrInvitation(actor, userId);
  const { organisationId } = found;
  if (found.kind === "invitation")
    return presentInvitation(found.invitation, await gymNames(actor, organisationId));
  const { role, user } = found;
  const [gyms, doors, pictures] = await Promise.all([
    gymNames(actor, organisationId),
    staffDoors(organisationId, userId),
    profilePicturesOf(organisationId, [userId]),
  ]);
  return present(role, user, gyms, doors, null, pictures.get(userId) ?? null);
}

/** `POST /api/staff/{id}/resend-invitation`: a new invitation link while the invitation is pending. */
export async function resendInvitation(actor: Actor, userId: string): Promise<StaffMember> {
  const found = await staffOrInvitation(actor, userId);
  const { organisationId } = found;
  if (found.kind === "invitation") {
    await sendInvitationEmail(found.invitation);
    return presentInvitation(found.invitation, await gymNames(actor, organisationId));
  }
  const { role, user } = found;
  if (user.password_hash) throw new ConflictError(staffMessages.notPending, "invitation_accepted");
  await sendInvitation(organisationId, user);
  const [gyms, doors] = await Promise.all([
    gymNames(actor, organisationId),
    staffDoors(organisationId, userId),
  ]);
  return present(role, user, gyms, doors);
}

/**
 * `DELETE /api/staff/{id}`: deactivates a staff member: their staff roles go (counters in the same
 * write), a membership at the gyms stays; their sessions lose this organisation and nothing else
 * (no sign-out, no other organisation touched). On a waiting invitation: withdraws it. The last
 * organisation admin cannot be removed; nor can you remove yourself.
 */
export async function deactivateStaff(actor: Actor, userId: string): Promise<StaffMember> {
  const found = await staffOrInvitation(actor, userId);
  const { organisationId } = found;
  if (found.kind === "invitation") {
    await withdrawInvitation(organisationId, userId);
    const row = presentInvitation(found.invitation, await gymNames(actor, organisationId));
    return { ...row, deleted_at: new Date().toISOString() };
  }
  const { role, user } = found;
  if (userId === actor.userId) throw new ConflictError(staffMessages.yourself, "remove_yourself");
  if (role.org_role === "admin") {
    const admins = (await staffRolesOf(organisationId)).filter((r) => r.org_role === "admin");
    if (admins.length <= 1) throw new ConflictError(staffMessages.lastAdmin, "last_admin");
  }
  const gyms = await gymNames(actor, organisationId);
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
  // The role is gone, so every session of theirs loses this organisation at its next request
  // (the actor is built from the roles each time); their sessions and other organisations stay.
  await withdrawInvitation(organisationId, userId).catch(() => undefined);
  await revokeStaffDoorAccess(organisationId, userId);
  return { ...before, access_enabled: false, door_access_gym_ids: [], deleted_at: deletedAt };
}
