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
    /** `kisi_user#<organisation>#<kisi user id>` / user id: who a Kisi unlock's actor is (gsi2). */
    kisi_user_key: { type: "string", field: "gsi2pk" },
    kisi_user_sort: { type: "string", field: "gsi2sk" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id", "holder", "gym_id"] },
    },
  },
});

/**
 * A visit: a Kisi unlock on a door that tracks visits (docs/access-control.md, docs/data-model.md
 * "Visits"). Keyed by the Kisi event id, so a redelivered webhook cannot make a second visit.
 * Read by gym (gsi1), by member (gsi2) and across the organisation (gsi3), each newest first by
 * `visited_at`. Names are copied so lists need no read per row.
 */
export const visitEntity = new Entity({
  model: { entity: "visit", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    event_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    visited_at: { type: "string", required: true, readOnly: true },
    successful: { type: "boolean", required: true },
    member_name: { type: "string" },
    gym_name: { type: "string" },
    door_id: { type: "string" },
    door_name: { type: "string" },
    /** The member's latest membership's offering when it was recorded (the rollups count the visit there). */
    offering_id: { type: "string" },
    /** The visit used one of a visit pass's visits (docs/offers.md "Visit passes"). */
    pass_visit_used: { type: "boolean" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["event_id"] },
    },
    byGym: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["organisation_id", "gym_id"] },
      sk: { field: "gsi1sk", composite: ["visited_at", "event_id"] },
    },
    byMember: {
      index: "gsi2",
      pk: { field: "gsi2pk", composite: ["organisation_id", "user_id"] },
      sk: { field: "gsi2sk", composite: ["visited_at", "event_id"] },
    },
    byOrganisation: {
      index: "gsi3",
      pk: { field: "gsi3pk", composite: ["organisation_id"] },
      sk: { field: "gsi3sk", composite: ["visited_at", "event_id"] },
    },
  },
});
