import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A gym belongs to one organisation; its key starts with the organisation id (tenancy).
 * Provider settings live on it: the destination bank account payments are paid into, the
 * Stripe connected account, the Branch app, the gym's own Akahu app, the Kisi place and its
 * doors. Secrets are stored encrypted (`*_enc`, see crypto/secrets.ts). Card surcharge and break
 * fee are overrides: unset means the organisation's default.
 */
export const gymEntity = new Entity({
  model: { entity: "gym", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true, readOnly: true },
    name: { type: "string", required: true },
    uuid: { type: "string", required: true, readOnly: true },
    logo: { type: "string" },
    tracks_visits: { type: "boolean", required: true, default: false },
    stripe_id: { type: "string" },
    stripe_livemode: { type: "boolean" },
    stripe_connected_at: { type: "string" },
    price_change_notification_reply_to: { type: "string" },
    destination_account: {
      type: "map",
      properties: {
        account_id: { type: "string", required: true },
        name: { type: "string", required: true },
        bank_account_number: { type: "string", required: true },
        updated_at: { type: "string" },
      },
    },
    branch_app_id: { type: "string" },
    branch_key: { type: "string" },
    branch_secret_enc: { type: "string" },
    akahu_app_token: { type: "string" },
    akahu_app_secret_enc: { type: "string" },
    kisi_place: {
      type: "map",
      properties: {
        place_id: { type: "string", required: true },
        name: { type: "string", required: true },
        linked_at: { type: "string" },
      },
    },
    doors: {
      type: "list",
      items: {
        type: "map",
        properties: {
          door_id: { type: "string", required: true },
          name: { type: "string", required: true },
          tracks_visits: { type: "boolean", required: true },
        },
      },
    },
    card_surcharge_basis_points: { type: "number" },
    card_surcharge_fixed_cents: { type: "number" },
    break_fee_basis_points: { type: "number" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["gym_id"] },
    },
    /** The join site's public link names a gym by its uuid. */
    byUuid: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["uuid"] },
      sk: { field: "gsi1sk", composite: [] },
    },
  },
});
