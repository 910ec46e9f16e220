import { listGyms } from "../gym/service";
import { getOrganisations } from "../organisation/service";
import { type GymRole, isStaffRole, type OrgRole, type RoleWritten, rolesOfUser } from "../user/roles";
import type { Session } from "./session";

/**
 * Who is acting and where: the signed-in user, the organisation and gym their session is in,
 * and their roles there. Every authorised call in core takes an Actor; every decision about
 * what it may touch is made by the policy (policy.ts) from these facts.
 */
export interface Actor {
  userId: string;
  sessionId: string;
  /** The current organisation, or null for someone who belongs to none yet (a new member). */
  organisationId: string | null;
  /** The current gym inside the current organisation, when there is one. */
  gymId: string | null;
  orgRole: OrgRole;
  gymRoles: { gym_id: string; role: GymRole }[];
  memberGymIds: string[];
  isStaff: boolean;
  /** The gyms of the current organisation this actor may reach (all of them for an organisation admin). */
  gyms: { gym_id: string; name: string }[];
  /** Their ids (derived from `gyms`, for the policy's membership checks). */
  gymIds: string[];
  /**
   * The same gyms as read with the session in this request (whole records: surcharge rates, the
   * destination account), for a call that needs them not to read them again. Absent on an actor
   * built by hand: read the gym then.
   */
  gymRecords?: Gyms;
}

type ActorSession = Pick<Session, "session_id" | "user_id" | "current_organisation_id" | "current_gym_id">;
type Gyms = Awaited<ReturnType<typeof listGyms>>;

/**
 * Builds the actor for a session: the user's role records (one index query) and the current
 * organisation's gyms (one query, run alongside it when the session names its organisation). A stale current organisation or gym (role removed) falls
 * back to the first one still allowed. signed-in.ts reads the same facts beside the session itself.
 */
export async function actorFor(session: ActorSession): Promise<Actor> {
  // The session usually names the organisation it is in: read its gyms alongside the roles.
  const guessed = session.current_organisation_id ? listGyms(session.current_organisation_id) : undefined;
  guessed?.catch(() => undefined);
  const roles = await rolesOfUser(session.user_id);
  const current =
    roles.find((role) => role.organisation_id === session.current_organisation_id) ??
    roles.find((role) => isStaffRole(role)) ??
    roles[0];
  if (!current) return actorWithRole(session, null, []);
  const organisationGyms =
    guessed && current.organisation_id === session.current_organisation_id
      ? await guessed
      : await listGyms(current.organisation_id);
  return actorWithRole(session, current, organisationGyms);
}

/** The actor of a session in the organisation of `current` (its role there, as read now) and its gyms. */
export function actorWithRole(
  session: ActorSession,
  current: Omit<RoleWritten, "user_id"> | null,
  organisationGyms: Gyms,
): Actor {
  const base = { userId: session.user_id, sessionId: session.session_id };
  if (!current) {
    return {
      ...base,
      organisationId: null,
      gymId: null,
      orgRole: "none",
      gymRoles: [],
      memberGymIds: [],
      isStaff: false,
      gyms: [],
      gymIds: [],
    };
  }
  const reachable = new Set([...current.gym_roles.map((g) => g.gym_id), ...current.member_gym_ids]);
  const gymRecords = organisationGyms.filter(
    (gym) => current.org_role === "admin" || reachable.has(gym.gym_id),
  );
  const gyms = gymRecords.map((gym) => ({ gym_id: gym.gym_id, name: gym.name }));
  const gymIds = gyms.map((gym) => gym.gym_id);
  const gymId = gymIds.includes(session.current_gym_id ?? "") ? session.current_gym_id! : (gymIds[0] ?? null);
  return {
    ...base,
    organisationId: current.organisation_id,
    gymId,
    orgRole: current.org_role,
    gymRoles: current.gym_roles,
    memberGymIds: current.member_gym_ids,
    isStaff: isStaffRole(current),
    gyms,
    gymIds,
    gymRecords,
  };
}

/**
 * The organisation's gyms: the records read with the session when the actor is that organisation's
 * admin (`gymRecords` then holds every gym of it), else read now. For a call that needs every gym
 * of the organisation (the books, the payouts) not to read them a second time.
 */
export function organisationGyms(actor: Actor, organisationId: string): Promise<Gyms> {
  return actor.orgRole === "admin" && actor.organisationId === organisationId && actor.gymRecords
    ? Promise.resolve(actor.gymRecords)
    : listGyms(organisationId);
}

/** Every organisation the actor's user belongs to, as their roles say now (for switching; one index query). */
export async function organisationIdsOf(actor: Pick<Actor, "userId">) {
  return (await rolesOfUser(actor.userId)).map((role) => role.organisation_id);
}

export async function organisationsOf(actor: Actor) {
  return getOrganisations(await organisationIdsOf(actor));
}
