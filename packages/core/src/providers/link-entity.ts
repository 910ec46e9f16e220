import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * Which organisation (and gym) a provider's id belongs to, so an inbound webhook that names only
 * the provider's id (a Stripe connected account, a Kisi place) is filed under its organisation.
 * Written when the connection is made; one key lookup when a webhook arrives.
 */
export const providerLinkEntity = new Entity({
  model: { entity: "provider_link", version: "1", service: SERVICE },
  attributes: {
    provider: {
      type: ["stripe_account", "kisi_place", "kisi_webhook"] as const,
      required: true,
      readOnly: true,
    },
    external_id: { type: "string", required: true, readOnly: true },
    organisation_id: { type: "string", required: true },
    gym_id: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["provider", "external_id"] },
      sk: { field: "sk", composite: [] },
    },
    /** Every link of a kind: the connected Stripe accounts the `payout-catch-up` job asks about. */
    byProvider: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["provider"] },
      sk: { field: "gsi1sk", composite: ["external_id"] },
    },
  },
});
