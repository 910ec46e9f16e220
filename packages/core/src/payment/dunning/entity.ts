import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../../db/entity";

/**
 * Dunning's work items: one per subscription while it owes money, existing only then. It carries
 * two sparse index keys, so the jobs find their work by Query, never by reading subscriptions:
 *  - gsi1 `grace#<shard>` / `<grace_period_ends_at>#<subscription_id>`: grace-expiry and the final notice;
 *  - gsi2 `retry#<shard>` / `<next_retry_on>#<subscription_id>`: payment-retries (absent after a
 *    hard decline or when no retry is left).
 * Written in the same transaction as the subscription's debt; deleted when the debt is cleared or
 * the subscription is cancelled.
 */
export const dunningEntity = new Entity({
  model: { entity: "dunning", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    subscription_id: { type: "string", required: true, readOnly: true },
    grace_key: { type: "string", field: "gsi1pk" },
    grace_sort: { type: "string", field: "gsi1sk" },
    retry_key: { type: "string", field: "gsi2pk" },
    retry_sort: { type: "string", field: "gsi2sk" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["subscription_id"] },
    },
  },
});
