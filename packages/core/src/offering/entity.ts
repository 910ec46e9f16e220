import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * An offering (membership plan) of an organisation. Keyed by organisation first (tenancy), so a
 * lookup with the actor's organisation cannot find another organisation's offering. The
 * organisation's offerings are one query on its partition. See docs/data-model.md.
 */
export const offeringEntity = new Entity({
  model: { entity: "offering", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    offering_id: { type: "string", required: true, readOnly: true },
    name: { type: "string", required: true },
    description: { type: "string" },
    type: { type: ["24_7", "limited_access"] as const, required: true },
    all_gyms_access: { type: "boolean", required: true, default: true },
    /** The gyms it is available at when not all_gyms_access. */
    gym_ids: { type: "list", required: true, default: () => [], items: { type: "string" } },
    mandated: { type: "boolean", required: true, default: false },
    hours_mandated: { type: "boolean", required: true, default: false },
    prices_mandated: { type: "boolean", required: true, default: false },
    hours: {
      type: "list",
      required: true,
      default: () => [],
      items: {
        type: "map",
        properties: {
          id: { type: "string", required: true },
          day: { type: "number", required: true },
          open_at: { type: "string", required: true },
          close_at: { type: "string", required: true },
        },
      },
    },
    archived_at: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["offering_id"] },
    },
  },
});

/**
 * How many distinct members currently hold a subscription to an offering at a gym. Written by the
 * subscriptions work (unique-memberships.ts `adjustUniqueMemberships`); read by key. Absent means 0.
 */
export const offeringMembershipCountEntity = new Entity({
  model: { entity: "offering_members", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    offering_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    members: { type: "number", required: true, default: 0 },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["offering_id", "gym_id"] },
    },
  },
});
