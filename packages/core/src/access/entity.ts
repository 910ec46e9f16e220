import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * Door access the product manages for one person at one gym's Kisi place (docs/access-control.md):
 * what we last asked Kisi for (`status`), why (`standing`, `reason`), and when the standing may
 * change next without a write (`review_at`: a pause starting or ending, a cancellation or grace
 * period taking effect). `holder` is "member" (from door standing) or "staff" (given by an admin).
 *
 * Listed per organisation by the primary key (the active-users page); the door-access job finds
 * records due for review through the sparse gsi1 (`door_review` / `<review_at>#...`).
 */
export const doorAccessEntity = new Entity({
  model: { entity: "door_access", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    holder: { type: ["member", "staff"] as const, required: true, readOnly: true },
    /** granted: Kisi lets them in; revoked: taken away; not_configured: no Kisi or no place for the gym. */
    status: { type: ["granted", "revoked", "not_configured"] as const, required: true },
    place_id: { type: "string" },
    kisi_user_id: { type: "string" },
    credential_id: { type: "string" },
    standing: { type: "boolean", required: true },
    reason: { type: "string", required: true },
    synced_at: { type: "string", required: true },
    /** The last Kisi error, kept until a sync succeeds. */
    last_error: { type: "string" },
    review_at: { type: "string" },
    review_key: { type: "string", field: "gsi1pk" },
    review_sort: { type: "string", field: "gsi1sk" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id", "holder", "gym_id"] },
    },
  },
});
