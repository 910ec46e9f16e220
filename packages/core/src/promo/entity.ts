import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A promo code of an organisation (docs/offers.md "Promo codes"). Keyed by organisation first
 * (tenancy). `uses` counts the joins made with it: each join adds 1 in the transaction that makes
 * the subscription, conditional on `uses < use_limit` and the code not archived, so a limit holds
 * under parallel joins.
 */
export const promoCodeEntity = new Entity({
  model: { entity: "promoCode", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    promo_code_id: { type: "string", required: true, readOnly: true },
    /** Upper case, unique within the organisation (promoCodeNameEntity). */
    code: { type: "string", required: true, readOnly: true },
    /** Absent: every gym of the organisation. */
    gym_id: { type: "string" },
    kind: { type: ["percent", "fixed"] as const, required: true },
    /** Basis points (percent) or cents (fixed). */
    value: { type: "number", required: true },
    /** Full periods discounted; absent: every period. */
    periods: { type: "number" },
    offering_ids: { type: "list", items: { type: "string" }, required: true, default: () => [] },
    price_ids: { type: "list", items: { type: "string" }, required: true, default: () => [] },
    starts_on: { type: "string" },
    ends_on: { type: "string" },
    use_limit: { type: "number" },
    uses: { type: "number", required: true, default: 0 },
    archived_at: { type: "string" },
    created_by: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["promo_code_id"] },
    },
  },
});

/**
 * A code's name within its organisation: created with the code, conditional on not existing, so two
 * codes never share a name; the join site's check finds the code by it.
 */
export const promoCodeNameEntity = new Entity({
  model: { entity: "promoCodeName", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    code: { type: "string", required: true, readOnly: true },
    promo_code_id: { type: "string", required: true, readOnly: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["code"] },
    },
  },
});

/**
 * A member's one use of a code: created in the join's transaction, conditional on not existing, so
 * a member uses a code once, even when they confirm twice at once.
 */
export const promoCodeUseEntity = new Entity({
  model: { entity: "promoCodeUse", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    promo_code_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    subscription_id: { type: "string", required: true, readOnly: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["promo_code_id", "user_id"] },
    },
  },
});
