import { api } from "@gym/web/api";
import type { CurrentUser } from "@gym/web/auth";

/** POST /api/organisations/{id}/switch: answers the current user in the new organisation. */
export function switchOrganisation(organisationId: string): Promise<CurrentUser> {
  return api.post<CurrentUser>(`/api/organisations/${encodeURIComponent(organisationId)}/switch`);
}

/** POST /api/gyms/{id}/switch: answers the current user with the new current gym. */
export function switchGym(gymId: string): Promise<CurrentUser> {
  return api.post<CurrentUser>(`/api/gyms/${encodeURIComponent(gymId)}/switch`);
}
