/**
 * `POST /api/organisations/{id}/members/onboard-pif` (spec 001 §7; docs/billing.md "Pay in full"):
 * a new address is made a member at once (pif/service.ts `onboardNewPifMember`); an address that
 * already has an account gets an invitation, and becomes a member (with the membership, its
 * payment and its tax invoice) only when the person accepts (docs/access-control.md).
 */
import type { Actor } from "../auth/actor";
import { ValidationError } from "../errors";
import { checkPifOnboarding, onboardNewPifMember } from "../pif/service";
import { roleIn } from "../user/roles";
import { findUserByEmail } from "../user/service";
import { invite } from "./service";

export const ALREADY_IN_ORGANISATION =
  "This person is already in your organisation: add pay in full from their member page.";

export async function onboardPif(actor: Actor, organisationId: string, body: unknown) {
  const values = await checkPifOnboarding(actor, organisationId, body);
  const existing = await findUserByEmail(values.email);
  if (!existing) return onboardNewPifMember(actor, organisationId, values);
  if (await roleIn(organisationId, existing.user_id))
    throw ValidationError.field("email", ALREADY_IN_ORGANISATION);
  await invite({
    organisation_id: organisationId,
    user_id: existing.user_id,
    kind: "pif",
    email: values.email,
    name: values.name,
    mobile_number: values.mobile_number ?? undefined,
    gym_id: values.gym_id,
    price_id: values.price_id,
    payment_method: values.payment_method,
    invited_by: actor.userId,
  });
  // Only what staff typed: the account's own name and details are not theirs to see.
  return {
    member: { id: existing.user_id, name: values.name, email: values.email },
    subscription: null,
    invite_sent: true,
    invitation_pending: true,
  };
}
