import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * The outbox (docs/data-model.md "The outbox"): one item per cross-layer event, written in the
 * SAME transaction as the change it tells of, so a change never commits without its event. Spread
 * over WORK_SHARDS partitions by a hash of the event id (`shard`), so a burst of events (a billing
 * run, grace expiry) does not write one partition. Deleted when delivered; while it exists it is
 * delivered again (the table's stream in AWS, the `outbox` job everywhere).
 *
 * `lease_until`: a delivery in progress (ISO instant); another delivery leaves the item alone until
 * then, so the inline delivery and the stream's do not both run the handler. Written with the item
 * when its writer delivers it inline (outbox.ts `inline`: the writer's lease from the commit). A
 * delivery that died leaves its lease to expire, and the next drain delivers the event again (at
 * least once).
 */
export const outboxEventEntity = new Entity({
  model: { entity: "outbox_event", version: "1", service: SERVICE },
  attributes: {
    shard: { type: "number", required: true, readOnly: true },
    event_id: { type: "string", required: true, readOnly: true },
    type: { type: "string", required: true, readOnly: true },
    /** The event's facts (JSON-shaped; outbox/events.ts names each type's shape). */
    payload: { type: "any", required: true, readOnly: true },
    lease_until: { type: "string" },
    /** Deliveries started (a count of tries: an event that keeps failing shows here). */
    attempts: { type: "number", default: 0 },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["shard"] },
      sk: { field: "sk", composite: ["event_id"] },
    },
  },
});
