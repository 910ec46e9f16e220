/** The register fields (address, emergency contact, answers): as shown, and `PUT /api/me/register-fields`. */
import type { Actor } from "../auth/actor";
import {
  answerLabel,
  confidenceLabels,
  hearAboutUsLabels,
  type RegisterFields,
  registerFieldsInput,
} from "../contract/registration";
import { db } from "../db/service";
import { getUser } from "../user/service";
import { parse } from "../validation";

export function presentRegisterFields(user: Awaited<ReturnType<typeof getUser>>): RegisterFields {
  return {
    address: user.address ?? null,
    suburb: user.suburb ?? null,
    city: user.city ?? null,
    post_code: user.post_code ?? null,
    emergency_contact_name: user.emergency_contact_name ?? null,
    emergency_contact_email: user.emergency_contact_email ?? null,
    emergency_contact_mobile_number: user.emergency_contact_mobile_number ?? null,
    emergency_contact_relationship: user.emergency_contact_relationship ?? null,
    confidence_and_experience: user.confidence_and_experience ?? null,
    confidence_and_experience_label: answerLabel(confidenceLabels, user.confidence_and_experience),
    hear_about_us: user.hear_about_us ?? null,
    hear_about_us_label: answerLabel(hearAboutUsLabels, user.hear_about_us),
    hear_about_us_other: user.hear_about_us_other ?? null,
    email_notifications_enabled: user.email_notifications_enabled ?? true,
    push_notifications_enabled: user.push_notifications_enabled ?? true,
    payment_reminders: user.payment_reminders ?? true,
    // Consent to commercial messages is given, never assumed: off until the member turns it on.
    marketing_emails: user.marketing_emails ?? false,
  };
}

/** `PUT /api/me/register-fields`: the member's address, emergency contact and answers. */
export async function saveRegisterFields(actor: Actor, body: unknown): Promise<RegisterFields> {
  const values = parse(registerFieldsInput, body);
  const set: Record<string, string | boolean> = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (value === null || value === "") remove.push(key);
    else set[key] = value;
  }
  if (values.hear_about_us && values.hear_about_us !== "other") remove.push("hear_about_us_other");
  let patch = db().entities.user.patch({ user_id: actor.userId }).set(set);
  if (remove.length) patch = patch.remove(remove as never);
  await patch.go();
  return presentRegisterFields(await getUser(actor.userId));
}
