/**
 * The register fields (address, emergency contact, answers, switches): as shown, and
 * `PUT /api/me/register-fields`. They are what the member tells the organisation they are
 * joining (member_profile, user/profile.ts), never another organisation's copy. A person who gave
 * them to another organisation is offered those values prefilled (`from_another_organisation`);
 * saving them is their consent to give them to this one.
 */
import { type Actor, organisationIdsOf } from "../auth/actor";
import {
  answerLabel,
  confidenceLabels,
  hearAboutUsLabels,
  type RegisterFields,
  registerFieldsInput,
} from "../contract/registration";
import { NotFoundError } from "../errors";
import { detailsToCarryOver, getProfile, type Profile, saveProfile, switchesOf } from "../user/profile";
import { PROFILE_FIELDS } from "../user/profile-entity";
import { parse } from "../validation";

/** The fields of the form: the profile's, but the mobile, date of birth and photo (asked for on their own steps). */
const ANSWERS = PROFILE_FIELDS.filter(
  (field) => field !== "mobile_number" && field !== "dob" && field !== "profile_picture",
);

type Details = Partial<Record<keyof Profile, string | boolean | undefined>>;

export function presentRegisterFields(profile: Details | null, fromAnother = false): RegisterFields {
  const text = (key: keyof Profile) => {
    const value = profile?.[key];
    return typeof value === "string" && value ? value : null;
  };
  return {
    address: text("address"),
    suburb: text("suburb"),
    city: text("city"),
    post_code: text("post_code"),
    emergency_contact_name: text("emergency_contact_name"),
    emergency_contact_email: text("emergency_contact_email"),
    emergency_contact_mobile_number: text("emergency_contact_mobile_number"),
    emergency_contact_relationship: text("emergency_contact_relationship"),
    confidence_and_experience: text("confidence_and_experience"),
    confidence_and_experience_label: answerLabel(confidenceLabels, text("confidence_and_experience")),
    hear_about_us: text("hear_about_us"),
    hear_about_us_label: answerLabel(hearAboutUsLabels, text("hear_about_us")),
    hear_about_us_other: text("hear_about_us_other"),
    ...switchesOf(fromAnother ? null : (profile as Parameters<typeof switchesOf>[0])),
    from_another_organisation: fromAnother,
    // Consent to commercial messages is given, never assumed: off until the member turns it on.
    marketing_emails: fromAnother
      ? false
      : ((profile as { marketing_emails?: boolean } | null)?.marketing_emails ?? false),
  };
}

/**
 * The fields as the join form shows them to the member: this organisation's, or (when they gave
 * it nothing yet) what they gave another organisation most recently, offered for them to save.
 */
export async function registerFieldsOf(
  actor: Actor,
  /** This organisation's profile, when the caller is reading it already. */
  profile?: Promise<Profile | null>,
): Promise<RegisterFields> {
  if (!actor.organisationId) throw new NotFoundError("registration");
  // The user's organisations are read beside this one's profile (one round), used when it is empty.
  const [own, organisationIds] = await Promise.all([
    profile ?? getProfile(actor.organisationId, actor.userId),
    organisationIdsOf(actor),
  ]);
  const hasOwn = own && ANSWERS.some((key) => own[key] !== undefined);
  if (hasOwn) return presentRegisterFields(own);
  const carried = await detailsToCarryOver(actor.userId, organisationIds, actor.organisationId);
  return carried ? presentRegisterFields(carried, true) : presentRegisterFields(own);
}

/** `PUT /api/me/register-fields`: what the member tells the organisation they are in. */
export async function saveRegisterFields(actor: Actor, body: unknown): Promise<RegisterFields> {
  if (!actor.organisationId) throw new NotFoundError("registration");
  const values = parse(registerFieldsInput, body);
  const changes: Record<string, string | boolean | null | undefined> = { ...values };
  if (values.hear_about_us && values.hear_about_us !== "other") changes.hear_about_us_other = null;
  await saveProfile(actor.organisationId, actor.userId, changes);
  return presentRegisterFields(await getProfile(actor.organisationId, actor.userId));
}
