import { ForbiddenError, NotFoundError } from "../errors";
import type { Actor } from "./actor";

/** The kinds of role the API's route table (functions/src/api/route-policy.ts) decides by. */
export type RoleKind = "org-admin" | "gym-admin" | "trainer" | "member" | "none";

/**
 * An actor's highest role in their current organisation: organisation admin, admin of at least one
 * gym, personal trainer (staff, no admin role), member, or none (signed in, in no organisation).
 */
export function roleKind(actor: Actor): RoleKind {
  if (actor.isStaff && actor.orgRole === "admin") return "org-admin";
  if (actor.isStaff && actor.gymRoles.some((g) => g.role === "admin")) return "gym-admin";
  if (actor.isStaff) return "trainer";
  return actor.organisationId ? "member" : "none";
}

/**
 * What an actor may do. Routers never hand-roll these checks: they call `authorize` (403 when
 * not allowed) or `inOrganisation` / `inGym` (404 for ids outside the actor's reach, so another
 * organisation's records are never revealed to exist).
 */
export const policy = {
  /** The staff back-office: organisation admins and anyone with a gym role. */
  useStaffArea: (actor: Actor) => actor.isStaff,
  /** Organisation settings, staff, gyms list management, pro-rata calculator. */
  manageOrganisation: (actor: Actor) => actor.isStaff && actor.orgRole === "admin",
  /** A gym's settings: organisation admins, and gym admins for their own gyms. */
  manageGym: (actor: Actor, gymId: string) =>
    actor.orgRole === "admin" || actor.gymRoles.some((g) => g.gym_id === gymId && g.role === "admin"),
  /** Seeing a gym's members, payments and visits. */
  workInGym: (actor: Actor, gymId: string) =>
    actor.isStaff && (actor.orgRole === "admin" || actor.gymRoles.some((g) => g.gym_id === gymId)),
  /**
   * Offerings and prices are the organisation's products: admins (organisation or gym) change them
   * (whether the offering forms are offered at all; which offering: `manageOffering`).
   */
  manageOfferings: (actor: Actor) =>
    actor.orgRole === "admin" || actor.gymRoles.some((g) => g.role === "admin"),
  /**
   * Gym scope: one offering (its prices, links, archive) or an offering as it would be after a
   * change. Organisation admins any; a gym admin only one limited to gyms they administer (not
   * `all_gyms_access`, and every one of its gyms theirs). Organisation-wide offerings are the
   * organisation admin's (docs/access-control.md "Gym scope").
   */
  manageOffering: (actor: Actor, offering: { all_gyms_access: boolean; gym_ids: readonly string[] }) => {
    if (actor.orgRole === "admin") return true;
    if (offering.all_gyms_access || offering.gym_ids.length === 0) return false;
    const administered = new Set(actor.gymRoles.filter((g) => g.role === "admin").map((g) => g.gym_id));
    return offering.gym_ids.every((id) => administered.has(id));
  },
  /** What reaches the whole organisation's join site (age-bypass links): organisation admins. */
  manageOrganisationLinks: (actor: Actor) => actor.isStaff && actor.orgRole === "admin",
  /**
   * The business's money: the dashboard's figures, the payments list and export, price changes and
   * pro-rata quotes. Organisation and gym admins; a personal trainer works with members and visits
   * (docs/access-control.md "What each role sees").
   */
  seeMoney: (actor: Actor) =>
    actor.isStaff && (actor.orgRole === "admin" || actor.gymRoles.some((g) => g.role === "admin")),
  /** Gym admin of more than one gym (shown in the sidebar's status box). */
  administersSeveralGyms: (actor: Actor) => actor.gymRoles.filter((g) => g.role === "admin").length > 1,
};

export function authorize(allowed: boolean, message?: string): void {
  if (!allowed) throw new ForbiddenError(message);
}

/** The actor's current organisation must be this one; otherwise it does not exist for them. */
export function inOrganisation(actor: Actor, organisationId: string, what = "organisation"): string {
  if (!actor.organisationId || actor.organisationId !== organisationId) throw new NotFoundError(what);
  return organisationId;
}

/** The organisation of the actor's session, for staff calls scoped to it. */
export function currentOrganisation(actor: Actor): string {
  if (!actor.organisationId) throw new ForbiddenError("You do not belong to an organisation.");
  return actor.organisationId;
}

/** A gym the actor can reach in their current organisation; anything else is not found. */
export function inGym(actor: Actor, gymId: string): string {
  if (!actor.gymIds.includes(gymId)) throw new NotFoundError("gym");
  return gymId;
}
