import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/**
 * The claim of one notice to a member (docs/communications.md): `reminder#<payment id>`,
 * `card-expiry#<payment id>#<days>`. Created conditionally before the email is sent, so a job run
 * twice (or two at once) sends each notice once; removed again when the send fails, so the next
 * run tries again. Kept 400 days. A reminder keeps the total it told; when the quote of its payment
 * changes, the notice is moved to the new total by a write conditioned on the old one, so an updated
 * reminder is sent once per change.
 */
export const noticeEntity = new Entity({
  model: { entity: "notice", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    notice_key: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    sent_at: { type: "string", required: true },
    /** A reminder's: the total it stated. A later quote of another total sends an updated reminder. */
    total: { type: "number" },
    expires_at: { type: "number" },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id", "notice_key"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
