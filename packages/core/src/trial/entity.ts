import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A member's one trial of a price (docs/offers.md "Trials"): created in the join's transaction,
 * conditional on not existing, so a member takes a price's trial once per organisation, even when
 * they confirm twice at once.
 */
export const trialUseEntity = new Entity({
  model: { entity: "trialUse", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    price_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    subscription_id: { type: "string", required: true, readOnly: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["price_id", "user_id"] },
    },
  },
});
