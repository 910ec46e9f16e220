import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/**
 * What a provider said happened to a settled payment, when it is not what we recorded (the daily
 * reconciliation, reconcile.ts). One item per payment (a second run finds the same key and
 * records nothing new), listed per organisation on `/expected-payments-debugging`.
 */
export const reconciliationMismatchEntity = new Entity({
  model: { entity: "reconciliation_mismatch", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    payment_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true },
    gym_id: { type: "string", required: true },
    member_name: { type: "string", required: true },
    gym_name: { type: "string", required: true },
    due_on: { type: "string", required: true },
    provider: { type: ["stripe", "akahu"] as const, required: true },
    provider_id: { type: "string", required: true },
    /** status: the provider's status disagrees with ours; amount: a different amount was charged;
     * not_ours: the provider's charge names another payment; missing: the provider has no such charge. */
    kind: { type: ["status", "amount", "not_ours", "missing"] as const, required: true },
    our_status: { type: "string", required: true },
    /** Cents we charged (amount + surcharge). */
    our_amount: { type: "number", required: true },
    provider_status: { type: "string" },
    provider_amount: { type: "number" },
    detail: { type: "string", required: true },
    found_at: { type: "string", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["payment_id"] },
    },
  },
});
