import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A user's place in one organisation: the organisation role (admin or none), the per-gym staff
 * roles (admin, personal_trainer) and the gyms they are a member of. One record per
 * (organisation, user): the organisation's people are one query, a user's organisations another.
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
