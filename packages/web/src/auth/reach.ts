import type { CurrentUser } from "./types";

/** The gyms a staff user works at: every gym for an organisation admin, else those they hold a role at. */
export function staffGymsOf(user: CurrentUser) {
  return user.is_organisation_admin ? user.gyms : user.gyms.filter((g) => g.role);
}

/**
 * Whether the user administers a gym (the given one, or any): organisation admins administer
 * every gym. The API decides; pages use this to show only what it would allow.
 */
export function administersGym(user: CurrentUser, gymId?: string): boolean {
  return (
    user.is_organisation_admin || user.gyms.some((g) => g.role === "admin" && (!gymId || g.id === gymId))
  );
}

/**
 * Gym scope (the API's `policy.manageOffering`): organisation admins change any offering; a gym
 * admin only one limited to gyms they administer. Pages show the controls only when it would allow.
 */
export function managesOffering(
  user: CurrentUser,
  offering: { all_gyms_access: boolean; gyms: readonly { id: string }[] },
): boolean {
  if (user.is_organisation_admin) return true;
  return (
    !offering.all_gyms_access &&
    offering.gyms.length > 0 &&
    offering.gyms.every((gym) => user.gyms.some((g) => g.id === gym.id && g.role === "admin"))
  );
}
