import { ForbiddenError } from "../errors";
import type { Actor } from "./actor";
import { authorize, policy } from "./policy";

/**
 * Which gyms and organisation a staff member's lists and actions reach (payments, members,
 * access, the dashboard): the access scope every staff-facing domain asks for.
 */

/** The gyms whose payments this staff member sees: every gym for an organisation admin, else their gym roles. */
export function staffGymIds(actor: Actor): string[] {
  if (actor.orgRole === "admin") return actor.gymIds;
  const mine = new Set(actor.gymRoles.map((g) => g.gym_id));
  return actor.gymIds.filter((id) => mine.has(id));
}

/** The gyms whose payments this staff member administers (export, marking received). */
export function adminGymIds(actor: Actor): string[] {
  if (actor.orgRole === "admin") return actor.gymIds;
  const mine = new Set(actor.gymRoles.filter((g) => g.role === "admin").map((g) => g.gym_id));
  return actor.gymIds.filter((id) => mine.has(id));
}

export function staffOrganisation(actor: Actor): string {
  authorize(policy.useStaffArea(actor));
  if (!actor.organisationId) throw new ForbiddenError("You do not belong to an organisation.");
  return actor.organisationId;
}
