import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A member's way to pay in one organisation (spec 001 §3 Payment type): a bank account through
 * their Akahu enduring consent, or a card saved with a Stripe SetupIntent on a gym's connected
 * account. A member's payment types are one Query (`organisation_id` / begins with `user_id`);
 * exactly one is the default (`is_default`, switched in one transaction). Nothing here is a
 * secret: account numbers are masked, cards are Stripe ids and display details.
 */
export const paymentTypeEntity = new Entity({
  model: { entity: "payment_type", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    payment_type_id: { type: "string", required: true, readOnly: true },
    type: { type: ["bank_account", "stripe_card"] as const, required: true, readOnly: true },
    is_default: { type: "boolean", required: true, default: false },
    /**
     * active; `reauthenticate` (a new bank consent is needed: the gym's account changed or a price
     * rose above the consent's limit); `revoked` (consent withdrawn / card detached); `removed`.
     */
    status: { type: ["active", "reauthenticate", "revoked", "removed"] as const, required: true },

    // bank_account
    /** `12-3140-•••••23-50`: never the whole number. */
    account_number: { type: "string" },
    name: { type: "string" },
    /** Akahu: the account id (`acc_…`), the connection, the gym whose app the consent belongs to. */
    meta: { type: "any" },

    // stripe_card
    card_type: { type: "string" },
    exp_month: { type: "number" },
    exp_year: { type: "number" },
    last_four: { type: "string" },
    country: { type: "string" },
    stripe_customer_id: { type: "string" },
    stripe_payment_method_id: { type: "string" },
    /** Stripe's `card.fingerprint` (which card it is): a card saved again replaces the older save. */
    card_fingerprint: { type: "string" },
    /** The gym's connected account the card is saved on (`acct_…`). */
    stripe_account: { type: "string" },
    gym_id: { type: "string" },

    version: { type: "number", required: true, default: 1 },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id", "payment_type_id"] },
    },
  },
});

/**
 * Which payment type is a member's default (docs/billing.md "One default payment method"): one item
 * per member per organisation, naming it. Every write that makes a payment type the default (a
 * card or bank account saved, a switch) writes this item in the same transaction, conditional on
 * it being as read (created only if absent; else still naming the default read, at the version
 * read), so two saves or switches at once cannot both leave their payment type the default.
 */
export const paymentTypeDefaultEntity = new Entity({
  model: { entity: "payment_type_default", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    payment_type_id: { type: "string", required: true },
    version: { type: "number", required: true, default: 1 },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});

/**
 * Who started a card SetupIntent for a Stripe Customer (`startCardSetup`): the save that follows
 * (`savePaymentTypeFromSetupIntent`) accepts the Customer only for the member who started it, and
 * is usually answered by another Lambda instance than the start, so this is a record, not process
 * memory. One per organisation and Customer; a day later DynamoDB's TTL removes it (readers check
 * `expires_at` too).
 */
export const cardSetupEntity = new Entity({
  model: { entity: "card_setup", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    stripe_customer_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true },
    /** Epoch seconds (the table's TTL attribute). */
    expires_at: { type: "number", required: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["stripe_customer_id"] },
    },
  },
});
