import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * An organisation runs one gym or several. Settings that govern billing live here, each with a
 * default (see docs/billing.md); the gyms issue makes all of them editable.
 */
export const organisationEntity = new Entity({
  model: { entity: "organisation", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    name: { type: "string", required: true },
    multi_gym: { type: "boolean", required: true, default: false },
    offering_permissions: {
      type: "map",
      required: true,
      default: () => ({ enable_offerings: true, non_stop: true, limited_access: true }),
      properties: {
        enable_offerings: { type: "boolean", required: true },
        non_stop: { type: "boolean", required: true },
        limited_access: { type: "boolean", required: true },
      },
    },
    price_frequencies: {
      type: "list",
      required: true,
      default: () => ["weekly", "fortnightly", "monthly", "quarterly", "six_monthly", "yearly"],
      items: { type: "string" },
    },
    failed_payment_grace_period: { type: "number", required: true, default: 14 },
    failed_payment_grace_period_unit: { type: "string", required: true, default: "days" },
    term_membership_grace_period: { type: "number", required: true, default: 30 },
    term_membership_grace_period_unit: { type: "string", required: true, default: "days" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
