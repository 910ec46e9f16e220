import { Entity } from "electrodb";
import { billingFrequencies } from "../billing/frequency";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A price of an offering: integer cents and a billing frequency, optionally a term and a joining
 * fee. Keyed by organisation first (tenancy). An offering's prices are one query on gsi1.
 * `subscriptions_count` counts every subscription ever started on the price (the subscriptions
 * work increments it); a price that was ever subscribed can only be archived, never deleted.
 */
export const priceEntity = new Entity({
  model: { entity: "price", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    price_id: { type: "string", required: true, readOnly: true },
    offering_id: { type: "string", required: true, readOnly: true },
    /** Recurring (or one-off) amount in integer cents. */
    amount: { type: "number", required: true },
    billing_frequency: {
      type: billingFrequencies,
      required: true,
    },
    private: { type: "boolean", required: true, default: false },
    /** Cents, once with the first payment; absent means none. */
    joining_fee: { type: "number" },
    term_amount: { type: "number" },
    term_unit: { type: ["weeks", "months", "years"] as const },
    /** A trial (docs/offers.md "Trials"): its days, and its cents for the whole trial (0 free). */
    trial_days: { type: "number" },
    trial_amount: { type: "number" },
    /** A visit pass (docs/offers.md "Visit passes"): a pay-in-full price's visits. */
    visits: { type: "number" },
    /** A pass valid for this many days from its start (instead of its term). */
    valid_days: { type: "number" },
    /** A family of prices: a price and the prices that later replace it share this value. */
    grouping_unique_identifier: { type: "string", required: true, readOnly: true },
    subscriptions_count: { type: "number", required: true, default: 0 },
    /** Private links to this price (the lookup records are joinLinkEntity, keyed by token). */
    private_links: {
      type: "list",
      required: true,
      default: () => [],
      items: {
        type: "map",
        properties: {
          id: { type: "string", required: true },
          token: { type: "string", required: true },
          age_bypass: { type: "boolean", required: true },
          created_at: { type: "string", required: true },
        },
      },
    },
    archived_at: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["price_id"] },
    },
    byOffering: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["organisation_id", "offering_id"] },
      sk: { field: "gsi1sk", composite: ["price_id"] },
    },
  },
});

/**
 * A link on the join site, keyed by its unguessable token (looked up without a session):
 *  - kind "price": a private price link (`/?price=<token>`), optionally also letting a member
 *    under the minimum age register (age_bypass);
 *  - kind "age_bypass": an organisation-level link (`/?age_bypass=<token>`) that lets a member
 *    under the minimum age register, with any offered price.
 * The token is stored as is: it reveals a price, it signs no one in, and staff copy it again later.
 */
export const joinLinkEntity = new Entity({
  model: { entity: "join_link", version: "1", service: SERVICE },
  attributes: {
    token: { type: "string", required: true, readOnly: true },
    link_id: { type: "string", required: true, readOnly: true },
    kind: { type: ["price", "age_bypass"] as const, required: true, readOnly: true },
    organisation_id: { type: "string", required: true, readOnly: true },
    offering_id: { type: "string", readOnly: true },
    price_id: { type: "string", readOnly: true },
    age_bypass: { type: "boolean", required: true, default: false },
    created_by: { type: "string", required: true, readOnly: true },
    created_at: { type: "string", required: true, readOnly: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["token"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
