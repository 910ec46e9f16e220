import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A user's place in one organisation: the organisation role (admin or none), the per-gym staff
 * roles (admin, personal_trainer) and the gyms they are a member of. One record per
 * (organisation, user): the organisation's people are one query, a user's organisations another.
 *
 * Staff roles only are also in the sparse gsi2 (`staff_key` = `staff#<organisation_id>`,
 * `staff_sort` = user id; written as raw attributes by `staffIndexKeys`, absent on a member-only
 * role): the staff list and the last-admin check read the organisation's tens of staff, not its
 * thousands of members.
 */
export const roleEntity = new Entity({
  model: { entity: "role", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    org_role: { type: ["admin", "none"] as const, required: true, default: "none" },
    gym_roles: {
      type: "list",
      required: true,
      default: () => [],
      items: {
        type: "map",
        properties: {
          gym_id: { type: "string", required: true },
          role: { type: ["admin", "personal_trainer"] as const, required: true },
        },
      },
    },
    member_gym_ids: { type: "list", required: true, default: () => [], items: { type: "string" } },
    invited_at: { type: "string" },
    deleted_at: { type: "string" },
    staff_key: { type: "string", field: "gsi2pk" },
    staff_sort: { type: "string", field: "gsi2sk" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
    byUser: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["user_id"] },
      sk: { field: "gsi1sk", composite: ["organisation_id"] },
    },
  },
});

/** The sparse staff index's keys of a role as written: present only on a live staff role. */
export function staffIndexKeys(role: {
  organisation_id: string;
  user_id: string;
  org_role?: string;
  gym_roles?: readonly unknown[];
  deleted_at?: string;
}): { staff_key?: string; staff_sort?: string } {
  const staff = !role.deleted_at && (role.org_role === "admin" || (role.gym_roles?.length ?? 0) > 0);
  return staff ? { staff_key: `staff#${role.organisation_id}`, staff_sort: role.user_id } : {};
}
