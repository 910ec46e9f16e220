import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";

/**
 * What a person told one organisation (docs/data-model.md "Personal details"): their contact
 * details, date of birth, address, emergency contact, answers, photo and notification switches,
 * kept per (organisation, person) and read only by that organisation's staff and the person
 * themselves. Nothing here is read across organisations: a person joining a second organisation
 * is offered their details from another one on the join form, and saving them is their consent.
 * The account itself (login email, name, password) is the user record.
 */
export const PROFILE_FIELDS = [
  "mobile_number",
  "dob",
  "profile_picture",
  "address",
  "suburb",
  "city",
  "post_code",
  "emergency_contact_name",
  "emergency_contact_email",
  "emergency_contact_mobile_number",
  "emergency_contact_relationship",
  "confidence_and_experience",
  "hear_about_us",
  "hear_about_us_other",
] as const;

/** The member's own notification switches (only they change them: docs/communications.md). */
export const PROFILE_SWITCHES = [
  "email_notifications_enabled",
  "push_notifications_enabled",
  "payment_reminders",
  "marketing_emails",
] as const;

export const memberProfileEntity = new Entity({
  model: { entity: "member_profile", version: "1", service: SERVICE },
  attributes: {
    organisation_id: { type: "string", required: true, readOnly: true },
    user_id: { type: "string", required: true, readOnly: true },
    mobile_number: { type: "string" },
    dob: { type: "string" },
    /** A file key `profile-pictures/<organisation>/<user>/<hash>.<ext>` (or a key from before, moved by the backfill). */
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
    push_notifications_enabled: { type: "boolean" },
    payment_reminders: { type: "boolean" },
    /** Consent to the gym's news and offers (marketing, docs/communications.md): absent = off. */
    marketing_emails: { type: "boolean" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["organisation_id"] },
      sk: { field: "sk", composite: ["user_id"] },
    },
  },
});
