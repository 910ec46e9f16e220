import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/**
 * One inbound provider call (Stripe, Akahu, Kisi), as received: kept 90 days (TTL) for
 * debugging. The partition is the organisation id when the call could be attributed to one,
 * else `global`. `call_id` is a ULID, so the sort key orders calls by arrival.
 */
export const webhookCallEntity = new Entity({
  model: { entity: "webhook_call", version: "1", service: SERVICE },
  attributes: {
    partition: { type: "string", required: true, readOnly: true },
    call_id: { type: "string", required: true, readOnly: true },
    provider: { type: ["stripe", "akahu", "kisi"] as const, required: true },
    event_type: { type: "string", required: true },
    event_id: { type: "string" },
    gym_id: { type: "string" },
    received_at: { type: "string", required: true },
    outcome: { type: ["accepted", "refused", "rejected", "duplicate", "error"] as const, required: true },
    status_code: { type: "number", required: true },
    detail: { type: "string" },
    /** The body with card and bank numbers, tokens and secrets removed (redact.ts). */
    body: { type: "string", required: true },
    expires_at: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["partition"] },
      sk: { field: "sk", composite: ["call_id"] },
    },
    byProvider: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["partition", "provider"] },
      sk: { field: "gsi1sk", composite: ["call_id"] },
    },
  },
});

/**
 * Marks a provider event id as seen (conditional create), so a redelivered event is recorded
 * as a duplicate and not handled twice. Kept as long as the log (90 days).
 */
export const webhookReceiptEntity = new Entity({
  model: { entity: "webhook_receipt", version: "1", service: SERVICE },
  attributes: {
    provider: { type: "string", required: true, readOnly: true },
    event_id: { type: "string", required: true, readOnly: true },
    call_id: { type: "string", required: true },
    expires_at: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["provider", "event_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
