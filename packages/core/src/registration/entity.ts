import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A member's registration at one organisation (what they chose on the join site): the gym, the
 * price and start date, the link they came through, and when they subscribed. One record per
 * (organisation, user); `POST /api/subscriptions` reads its choices as defaults
 * (subscription/confirm.ts `useRegistrationDefaults`).
 */
export const registrationEntity = new Entity({
  model: { entity: "registration", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true },
    price_id: { type: "string" },
    /** The private price link used (its token, so later quotes can show that private price). */
    price_link: { type: "string" },
    price_link_id: { type: "string" },
    age_bypass_link_id: { type: "string" },
    start_date: { type: "string" },
    billing_date: { type: "string" },
    is_returning_member: { type: "boolean", required: true, default: false },
    subscribed_at: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});
