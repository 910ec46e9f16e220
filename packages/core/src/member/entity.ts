import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A member as one organisation's staff see them (docs/members.md): the organisation's own facts
 * (notes, tags, soft deletion) and copies for listing (name, email, the sort key of the name, the
 * join date, the gyms, the latest subscription's id). Person-level facts (contact, address,
 * emergency contact) stay on the user record. Written by `indexMember` (member/search-index.ts).
 */
export const memberEntity = new Entity({
  model: { entity: "member", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    name: { type: "string", required: true },
    email: { type: "string", required: true },
    /** The name folded for sorting (lower case, accents removed) . */
    name_key: { type: "string", required: true },
    joined_at: { type: "string", required: true },
    gym_ids: { type: "list", required: true, default: () => [], items: { type: "string" } },
    notes: { type: "string" },
    tags: { type: "list", required: true, default: () => [], items: { type: "string" } },
    latest_subscription_id: { type: "string" },
    /** The search terms written for this member (so a rename removes the old ones). */
    search_terms: { type: "list", required: true, default: () => [], items: { type: "string" } },
    deleted_at: { type: "string" },
    deleted_by: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
    byName: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["organisation_id"] },
      sk: { field: "gsi1sk", composite: ["name_key", "user_id"] },
    },
    byJoined: {
      index: "gsi2",
      pk: { field: "gsi2pk", composite: ["organisation_id"] },
      sk: { field: "gsi2sk", composite: ["joined_at", "user_id"] },
    },
  },
});

/**
 * One word of a member's name, or their email, under the organisation and the word's first
 * character: `POST /api/search` is one Query `begins_with(term, prefix)` on (organisation,
 * first character). Carries the name and email so results need no further read.
 */
export const memberSearchTermEntity = new Entity({
  model: { entity: "member_search_term", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    initial: { type: "string", required: true, readOnly: true },
    term: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    name: { type: "string", required: true },
    email: { type: "string", required: true },
    gym_ids: { type: "list", required: true, default: () => [], items: { type: "string" } },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "initial"] },
      sk: { field: "sk", composite: ["term", "user_id"] },
    },
  },
});

/**
 * The member's activity log: one record per thing that happened (sign-up, payments, pauses,
 * cancellations, price changes, staff edits), written by the operation itself, newest first by
 * its ULID.
 */
export const memberActivityEntity = new Entity({
  model: { entity: "member_activity", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    activity_id: { type: "string", required: true, readOnly: true },
    kind: { type: "string", required: true },
    summary: { type: "string", required: true },
    detail: { type: "string" },
    /** Who did it: a staff member's id and name, or absent for the system (billing run, webhooks). */
    actor_id: { type: "string" },
    actor_name: { type: "string" },
    subscription_id: { type: "string" },
    payment_id: { type: "string" },
    changes: {
      type: "list",
      items: {
        type: "map",
        properties: {
          field: { type: "string", required: true },
          from: { type: "string" },
          to: { type: "string" },
        },
      },
    },
    at: { type: "string", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "user_id"] },
      sk: { field: "sk", composite: ["activity_id"] },
    },
  },
});
