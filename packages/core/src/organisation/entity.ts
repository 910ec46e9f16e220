import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * An organisation runs one gym or several. Settings that govern billing live here, each with a
 * default (see docs/billing.md "Settings"); organisation admins edit them (organisation/settings.ts).
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
    /** The youngest a member may register at (unset: 16); an age-bypass link lets younger ones join. */
    min_registration_age: { type: "number" },
    /** The membership terms and conditions (an https address) the join site links; unset: none published. */
    terms_url: { type: "string" },
    failed_payment_grace_period_unit: { type: "string", required: true, default: "days" },
    term_membership_grace_period: { type: "number", required: true, default: 30 },
    term_membership_grace_period_unit: { type: "string", required: true, default: "days" },
    // Billing settings (docs/billing.md "Settings"); records made before these existed read the
    // defaults through organisationSettings().
    payment_retry_days: { type: "list", items: { type: "number" }, default: () => [1, 3, 5] },
    cooling_off_days: { type: "number", default: 7 },
    pause_day_credit_days: { type: "number", default: 30 },
    card_surcharge_basis_points: { type: "number", default: 250 },
    card_surcharge_fixed_cents: { type: "number", default: 30 },
    break_fee_basis_points: { type: "number", default: 2500 },
    /** Days of notice a price rise needs (subscription/price-change.ts). */
    price_change_notice_days: { type: "number" },
    /** Receipts (docs/communications.md): the registered name and GST number; none = not registered. */
    legal_name: { type: "string" },
    gst_number: { type: "string" },
    /** Days before a charge its reminder is sent (unset: 3; 0: none). */
    payment_reminder_days: { type: "number" },
    /** The door access-control integration (Kisi), configured once per organisation. */
    access_control: {
      type: "map",
      properties: {
        integration_id: { type: "string", required: true },
        integration_type: { type: ["kisi"] as const, required: true },
        api_key_enc: { type: "string", required: true },
        connected_at: { type: "string", required: true },
        /** SHA-256 of the secret in the Kisi webhook URL (shown once, rotatable). */
        webhook_secret_hash: { type: "string" },
        webhook_secret_set_at: { type: "string" },
      },
    },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
