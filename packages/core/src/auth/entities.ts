import { Entity } from "electrodb";
import { SERVICE } from "../db/entity";

/**
 * A signed-in session, referenced by an HttpOnly cookie. The key is the SHA-256 of the cookie
 * token, so the table never holds a usable token. Expired sessions are ignored on read and
 * removed by TTL.
 */
export const sessionEntity = new Entity({
  model: { entity: "session", version: "1", service: SERVICE },
  attributes: {
    session_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    two_factor_passed: { type: "boolean", required: true, default: false },
    current_organisation_id: { type: "string" },
    current_gym_id: { type: "string" },
    created_at: { type: "string", required: true, readOnly: true },
    last_seen_at: { type: "string", required: true },
    /** Absolute end: a session never outlives this, however active. */
    absolute_expires_at: { type: "number", required: true },
    /** Idle end (epoch seconds), pushed forward on use; DynamoDB's TTL attribute. */
    expires_at: { type: "number", required: true },
    ip: { type: "string" },
    user_agent: { type: "string" },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["session_id"] },
      sk: { field: "sk", composite: [] },
    },
    byUser: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["user_id"] },
      sk: { field: "gsi1sk", composite: ["session_id"] },
    },
  },
});

/** An emailed six-digit code (sign-in second factor, email verification). One live code per user and purpose. */
export const codeEntity = new Entity({
  model: { entity: "code", version: "1", service: SERVICE },
  attributes: {
    user_id: { type: "string", required: true, readOnly: true },
    purpose: { type: ["two_factor"] as const, required: true, readOnly: true },
    code_hash: { type: "string", required: true },
    attempts: { type: "number", required: true, default: 0 },
    sent_at: { type: "string", required: true },
    expires_at: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["user_id"] },
      sk: { field: "sk", composite: ["purpose"] },
    },
  },
});

/**
 * A single-use emailed link, keyed by the SHA-256 of its token: a password reset, a new account's
 * invitation (set a password), an invitation an existing account accepts or declines
 * (`invitation`, naming the organisation), a new login email confirmed from that address
 * (`email_change`, naming it in `email`) and the old address's undo (`email_undo`, naming the old).
 */
export const linkEntity = new Entity({
  model: { entity: "link", version: "1", service: SERVICE },
  attributes: {
    token_hash: { type: "string", required: true, readOnly: true },
    purpose: {
      type: ["reset", "invite", "invitation", "email_change", "email_undo"] as const,
      required: true,
      readOnly: true,
    },
    user_id: { type: "string", required: true, readOnly: true },
    organisation_id: { type: "string" },
    email: { type: "string" },
    created_at: { type: "string", required: true, readOnly: true },
    used_at: { type: "string" },
    expires_at: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["token_hash"] },
      sk: { field: "sk", composite: [] },
    },
  },
});

/** A counter in a time window, for slowing and refusing repeated attempts (sign-in, codes, emails). */
export const throttleEntity = new Entity({
  model: { entity: "throttle", version: "1", service: SERVICE },
  attributes: {
    key: { type: "string", required: true, readOnly: true },
    count: { type: "number", required: true, default: 0 },
    window_started_at: { type: "number", required: true },
    expires_at: { type: "number", required: true },
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["key"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
