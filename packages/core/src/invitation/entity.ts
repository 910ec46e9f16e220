import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/**
 * An invitation an organisation's staff sent to a person who already has an account
 * (docs/access-control.md "Enrolment needs the person"): to become staff, or a pay-in-full member.
 * One per (organisation, person), created conditionally, so parallel invites send one email.
 * Until the person accepts, the organisation holds only this: what its staff typed. Declined,
 * cancelled or expired (TTL, and readers check `expires_at`), it leaves nothing behind.
 */
export const invitationEntity = new Entity({
  model: { entity: "invitation", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    kind: { type: ["staff", "pif"] as const, required: true },
    /** What staff typed: the address, the name they know the person by, a mobile. */
    email: { type: "string", required: true },
    name: { type: "string", required: true },
    mobile_number: { type: "string" },
    /** staff: the role offered. */
    org_role: { type: ["admin", "none"] as const },
    gym_roles: {
      type: "list",
      items: {
        type: "map",
        properties: {
          gym_id: { type: "string", required: true },
          role: { type: ["admin", "personal_trainer"] as const, required: true },
        },
      },
    },
    /** pif: the membership offered and how it was paid at the desk. */
    gym_id: { type: "string" },
    price_id: { type: "string" },
    payment_method: { type: "string" },
    invited_by: { type: "string", required: true },
    invited_at: { type: "string", required: true },
    expires_at: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});
