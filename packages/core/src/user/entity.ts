import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * A person who signs in: staff and members alike. A user is not owned by one organisation
 * (they may belong to several); what they may see comes from their role records.
 */
export const userEntity = new Entity({
  model: { entity: "user", version: "1", service: SERVICE },
  attributes: {
    user_id: { type: "string", required: true, readOnly: true },
    email: { type: "string", required: true },
    name: { type: "string", required: true },
    password_hash: { type: "string" },
    email_verified_at: { type: "string" },
    password_changed_at: { type: "string" },
    current_organisation_id: { type: "string" },
    current_gym_id: { type: "string" },
    // Legacy: personal details once lived here, read across every organisation the person was in.
    // They now live per organisation on member_profile (user/profile-entity.ts); nothing writes
    // these, and the backfill (user/profile-backfill.ts) moves them off and removes them.
    mobile_number: { type: "string" },
    dob: { type: "string" },
    profile_picture: { type: "string" },
    address: { type: "string" },
    suburb: { type: "string" },
    city: { type: "string" },
    post_code: { type: "string" },
    emergency_contact_name: { type: "string" },
    emergency_contact_email: { type: "string" },
    emergency_contact_mobile_number: { type: "string" },
    emergency_contact_relationship: { type: "string" },
    confidence_and_experience: { type: "string" },
    hear_about_us: { type: "string" },
    hear_about_us_other: { type: "string" },
    email_notifications_enabled: { type: "boolean" },
    /** Consent to the gym's news and offers (commercial messages, UEMA 2007): absent = not given. */
    marketing_emails: { type: "boolean" },
    push_notifications_enabled: { type: "boolean" },
    payment_reminders: { type: "boolean" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["user_id"] },
      sk: { field: "sk", composite: [] },
    },
    byEmail: {
      index: "gsi1",
      pk: { field: "gsi1pk", composite: ["email"] },
      sk: { field: "gsi1sk", composite: [] },
    },
  },
});

/**
 * One item per email address in use, written in the same transaction as the user it names (a
 * conditional create): two sign-ups with the same new address at the same instant cannot both
 * make an account, which the `byEmail` index (a GSI, eventually consistent, no uniqueness) cannot
 * promise. Whatever changes a user's email moves this item in the same transaction.
 */
export const userEmailEntity = new Entity({
  model: { entity: "user_email", version: "1", service: SERVICE },
  attributes: {
    email: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["email"] },
      sk: { field: "sk", composite: [] },
    },
  },
});
