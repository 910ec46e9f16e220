import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/** The local outbox: every email sent while running locally, newest first. Never used in AWS. */
export const mailEntity = new Entity({
  model: { entity: "mail", version: "1", service: SERVICE },
  attributes: {
    mail_id: { type: "string", required: true, readOnly: true },
    to: { type: "string", required: true },
    subject: { type: "string", required: true },
    text: { type: "string", required: true },
    html: { type: "string" },
    reply_to: { type: "string" },
    headers: { type: "any" },
    sent_at: { type: "string", required: true },
    expires_at: { type: "number" },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: [] },
      sk: { field: "sk", composite: ["mail_id"] },
    },
  },
});
