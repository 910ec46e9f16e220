import { NotFoundError } from "../errors";
import { titleCase } from "../text";
import { profilePictureUrl } from "../user/picture";
import { getProfile } from "../user/profile";
import { getUser } from "../user/service";
import { type Actor, actorFor, organisationsOf } from "./actor";
import { policy } from "./policy";
import { setSessionContext } from "./session";

/**
 * The current-user shape of spec 000 §3, its identity part. The payment methods (`payment_types`,
 * `default_payment_type`) are filled in above this layer (payment-type/current-user.ts, which
 * `GET /api/me` answers); registration fields (start and billing dates, chosen offering and
 * price) are the join site's registration state's (`GET /api/me/registration`).
 */
export async function currentUser(actor: Actor) {
  // The mobile and photo are what the person gave the organisation they are in now (or nothing).
  const [user, organisations, profile] = await Promise.all([
    getUser(actor.userId),
    organisationsOf(actor),
    actor.organisationId ? getProfile(actor.organisationId, actor.userId) : null,
  ]);
  const organisation = organisations.find((o) => o.organisation_id === actor.organisationId);
  const gymRole = (gymId: string | null) => actor.gymRoles.find((g) => g.gym_id === gymId)?.role ?? null;
  return {
    id: user.user_id,
    name: titleCase(user.name),
    email: user.email,
    mobile_number: profile?.mobile_number ?? null,
    organisations: organisations.map((o) => ({ id: o.organisation_id, name: o.name })),
    current_organisation: organisation
      ? {
          id: organisation.organisation_id,
          name: organisation.name,
          multi_gym: organisation.multi_gym,
          role: actor.orgRole === "admin" ? ("admin" as const) : null,
        }
      : null,
    gyms: actor.gyms.map((gym) => ({ id: gym.gym_id, name: gym.name, role: gymRole(gym.gym_id) })),
    current_gym: actor.gymId ? { id: actor.gymId, role: gymRole(actor.gymId) } : null,
    profile_picture: profilePictureUrl(profile?.profile_picture),
    payment_types: [] as { id: string; type: string }[],
    start_date: null as string | null,
    billing_date: null as string | null,
    offering: null as unknown,
    price_id: null as string | null,
    default_payment_type: null as unknown,
    general_card_surcharge_text: null as string | null,
    is_staff: actor.isStaff,
    is_organisation_admin: actor.orgRole === "admin",
    is_gym_admin: actor.gymRoles.some((g) => g.role === "admin"),
    administers_several_gyms: policy.administersSeveralGyms(actor),
    should_onboard: false,
    invited_at: null as string | null,
    email_verified: Boolean(user.email_verified_at),
  };
}

export type CurrentUser = Awaited<ReturnType<typeof currentUser>>;

/** Moves the session to another of the user's organisations (its first allowed gym). */
export async function switchOrganisation(actor: Actor, organisationId: string) {
  const next = await actorFor({
    session_id: actor.sessionId,
    user_id: actor.userId,
    current_organisation_id: organisationId,
    current_gym_id: undefined,
  });
  // The actor lands elsewhere when the user has no role in that organisation.
  if (next.organisationId !== organisationId) throw new NotFoundError("organisation");
  await setSessionContext(actor.sessionId, {
    current_organisation_id: organisationId,
    current_gym_id: next.gymId ?? undefined,
  });
  return next;
}

/** Moves the session to another gym the user can reach in the current organisation. */
export async function switchGym(actor: Actor, gymId: string) {
  if (!actor.gymIds.includes(gymId)) throw new NotFoundError("gym");
  await setSessionContext(actor.sessionId, {
    current_organisation_id: actor.organisationId ?? undefined,
    current_gym_id: gymId,
  });
  return { ...actor, gymId };
}
