import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../../db/entity";

/**
 * A person's Akahu (bank-feed) connection in one organisation: the user token from the code
 * exchange (encrypted), the gym whose Akahu app issued it, and the accounts last synced. The
 * registration and billing work build payment types on these accounts.
 */
export const akahuConnectionEntity = new Entity({
  model: { entity: "akahu_connection", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    gym_id: { type: "string", required: true },
    token_enc: { type: "string", required: true },
    connected_at: { type: "string", required: true },
    synced_at: { type: "string" },
    accounts: {
      type: "list",
      items: {
        type: "map",
        properties: {
          id: { type: "string", required: true },
          name: { type: "string", required: true },
          formatted_account: { type: "string" },
          type: { type: "string", required: true },
          status: { type: "string", required: true },
          connection: { type: "string" },
        },
      },
    },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});
