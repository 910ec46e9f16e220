import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/** A gym belongs to one organisation; its key starts with the organisation id (tenancy). */
export const gymEntity = new Entity({
  model: { entity: "gym", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    name: { type: "string", required: true },
    uuid: { type: "string", required: true, readOnly: true },
    logo: { type: "string" },
    tracks_visits: { type: "boolean", required: true, default: false },
    stripe_id: { type: "string" },
    price_change_notification_reply_to: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["gym_id"] },
    },
  },
});
