/** The staff calls (spec 001 §7 Staff) for the staff pages; types from `@gym/core/contract/staff`. */
import type { StaffExists, StaffInviteInput, StaffMember } from "@gym/core/contract/staff";
import { api, useApi } from "@gym/web/api";

export type { StaffExists, StaffInviteInput, StaffMember };

export function useStaffList(organisationId: string | undefined) {
  return useApi<StaffMember[]>(organisationId ? `/api/organisations/${organisationId}/staff` : null);
}

export function useStaffMember(id: string | undefined) {
  return useApi<StaffMember>(id ? `/api/staff/${encodeURIComponent(id)}` : null);
}

export const staffExists = (organisationId: string, email: string) =>
  api.post<StaffExists>(`/api/organisations/${organisationId}/staff-exists`, { email });

export const inviteStaff = (organisationId: string, body: StaffInviteInput) =>
  api.post<StaffMember>(`/api/organisations/${organisationId}/staff`, body);

export const resendInvitation = (id: string) =>
  api.post<StaffMember>(`/api/staff/${encodeURIComponent(id)}/resend-invitation`);

export const deactivateStaff = (id: string) =>
  api.delete<StaffMember>(`/api/staff/${encodeURIComponent(id)}`);

/** `POST /api/staff/{id}/kisi-access`: gives or removes their staff door access at one gym. */
export const setStaffDoorAccess = (id: string, gymId: string, enabled: boolean) =>
  api.post(`/api/staff/${encodeURIComponent(id)}/kisi-access`, { gym_id: gymId, enabled });

export const roleLabels: Record<StaffMember["role"], string> = {
  admin: "Organisation admin",
  personal_trainer: "Personal trainer",
  per_gym: "Per gym",
};

export const gymRoleLabels: Record<string, string> = {
  admin: "Gym admin",
  personal_trainer: "Personal trainer",
};
