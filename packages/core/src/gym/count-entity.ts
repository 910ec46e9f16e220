import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/** The organisation-wide row of the counters (its admins count as staff of every gym). */
export const ORGANISATION_SCOPE = "_organisation";

/**
 * Counters of an organisation's people, kept in the same transaction as every role write
 * (user/roles.ts `putRole`), so the gyms list and a gym's page read a few counter rows instead
 * of every role record. One row per gym (`staff`: non-admin staff with a role there, `members`)
 * and one for the organisation (`admins`). Absent means 0.
 */
export const gymPeopleEntity = new Entity({
  model: { entity: "gym_people", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    scope: { type: "string", required: true, readOnly: true },
    admins: { type: "number" },
    staff: { type: "number" },
    members: { type: "number" },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["scope"] },
    },
  },
});
