/**
 * Pay in full (spec 001 §4, §7 Members; docs/billing.md "Pay in full"):
 * - `POST /api/members/{id}/pif` adds a one_off price paid by eftpos, cash or bank transfer (which
 *   stays `awaiting_payment` until marked received) to an existing member, only when spec §4's
 *   `canAddPif` says so: no subscription, or none with a scheduled price change and none upcoming.
 * - `POST /api/organisations/{id}/members/onboard-pif` creates the member first (or takes a person who
 *   already has an account elsewhere), then does the same, and emails them a link to finish
 *   registration (set a password; no recurring payment method is asked for).
 * - `POST /api/members/{id}/resend-pif-invite` sends that link again while it has not been used.
 * The subscription is made by the money engine's `createSubscription` (pif_ends_at from the price).
 * Every check runs before the first write, so a refused request leaves nothing behind.
 */

import type { z } from "zod";
import type { Actor } from "../auth/actor";
import { createLink } from "../auth/links";
import { authorize } from "../auth/policy";
import { adminGymIds, staffGymIds, staffOrganisation } from "../auth/scope";
import { canAddPif } from "../billing/subscription-state";
import { businessNow } from "../clock";
import { addPifInput, onboardPifInput } from "../contract/lifecycle";
import type { MoneyQuote } from "../contract/quote";
import { sendEmail } from "../email/port";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { getGym } from "../gym/service";
import { findPrice } from "../price/store";
import { createSubscription, subscriptionWithPayments } from "../subscription/service";
import { factsOf } from "../subscription/states";
import { isLive, memberSubscriptions } from "../subscription/store";
import { titleCase } from "../text";
import { saveProfile } from "../user/profile";
import { putRole, roleIn } from "../user/roles";
import { createUser, getUserOrNull } from "../user/service";
import { parse } from "../validation";
import { pifInviteEmail } from "./emails";

export { addPifInput, onboardPifInput };

interface PifChoice {
  price_id: string;
  gym_id: string;
}

/** The gym must be the staff member's (404 otherwise), they must administer it, and the price must be a current PIF price. */
async function checkPifChoice(actor: Actor, values: PifChoice) {
  const organisationId = staffOrganisation(actor);
  if (!staffGymIds(actor).includes(values.gym_id)) throw new NotFoundError("gym");
  authorize(
    adminGymIds(actor).includes(values.gym_id),
    "Only an admin of this gym can add a pay-in-full membership.",
  );
  const price = await findPrice(organisationId, values.price_id);
  if (!price || price.archived_at) throw ValidationError.field("price_id", "Choose a current price.");
  if (price.billing_frequency !== "one_off")
    throw ValidationError.field("price_id", "Choose a pay-in-full (PIF) price.");
  return { organisationId, price };
}

async function assertPifAllowed(organisationId: string, userId: string) {
  const now = await businessNow();
  const subs = await memberSubscriptions(organisationId, userId);
  if (!canAddPif(subs.filter((s) => isLive(s, now)).map((s) => factsOf(s, now))))
    throw new ConflictError(
      "This member has an upcoming membership or a scheduled price change, so pay in full cannot be added.",
      "pif_not_allowed",
    );
}

export async function addPif(actor: Actor, userId: string, body: unknown) {
  const values = parse(addPifInput, body);
  const { organisationId } = await checkPifChoice(actor, values);
  await assertPifAllowed(organisationId, userId);
  const created = await createSubscription({
    organisation_id: organisationId,
    user_id: userId,
    gym_id: values.gym_id,
    price_id: values.price_id,
    pif_payment_method: values.payment_method,
    processed_by: actor.userId,
  });
  return subscriptionWithPayments(created.subscription);
}

/**
 * The link to finish joining; `nextCharge` is the membership's quote of its next money event, so a
 * transfer not yet received is said, with its amount and how to pay it (pif/emails.ts).
 */
async function sendPifInvite(
  organisationId: string,
  gymId: string,
  user: { user_id: string; name: string; email: string },
  nextCharge: MoneyQuote | null,
) {
  const gym = await getGym(organisationId, gymId);
  const token = await createLink({
    purpose: "invite",
    user_id: user.user_id,
    organisation_id: organisationId,
  });
  await sendEmail(
    pifInviteEmail(
      user.email,
      titleCase(user.name),
      { name: gym.name, ref: { organisation_id: organisationId, gym_id: gymId } },
      token,
      gym.uuid,
      nextCharge ? { quote: nextCharge, account: gym.destination_account ?? null } : null,
    ),
  );
}

/**
 * `POST /api/organisations/{id}/members/onboard-pif` for an address with no account: the account,
 * the member place and the membership are made at once (the person is at the desk), and they are
 * emailed a link to set a password. An address that already has an account is the invitation
 * module's (invitation/pif.ts): the person must accept first.
 */
export async function onboardNewPifMember(
  actor: Actor,
  organisationId: string,
  values: z.output<typeof onboardPifInput>,
) {
  const user = await createUser({ email: values.email, name: values.name });
  await putRole({ organisation_id: organisationId, user_id: user.user_id, member_gym_ids: [values.gym_id] });
  if (values.mobile_number)
    await saveProfile(organisationId, user.user_id, { mobile_number: values.mobile_number });
  const subscription = await addPif(actor, user.user_id, {
    price_id: values.price_id,
    gym_id: values.gym_id,
    payment_method: values.payment_method,
  });
  await sendPifInvite(organisationId, values.gym_id, user, subscription.next_charge);
  return {
    member: { id: user.user_id, name: user.name, email: user.email },
    subscription,
    invite_sent: true,
    invitation_pending: false,
  };
}

/** The checks of an onboarding, before anything is written (the choice, the staff member's gym). */
export async function checkPifOnboarding(actor: Actor, organisationId: string, body: unknown) {
  if (staffOrganisation(actor) !== organisationId) throw new NotFoundError("organisation");
  const values = parse(onboardPifInput, body);
  await checkPifChoice(actor, values);
  return values;
}

/**
 * The checks an invitation's pay-in-full membership must still pass when the person accepts it
 * (the price still sold as pay in full; pay in full still allowed for them), before anything is written.
 */
export async function checkPifOffer(input: { organisation_id: string; user_id: string; price_id: string }) {
  const price = await findPrice(input.organisation_id, input.price_id);
  if (!price || price.archived_at || price.billing_frequency !== "one_off")
    throw new ConflictError(
      "The membership you were offered is no longer sold. Ask the gym for a new invitation.",
      "pif_not_allowed",
    );
  await assertPifAllowed(input.organisation_id, input.user_id);
}

/**
 * An accepted pay-in-full invitation (invitation/service.ts): the membership is made now, paid as
 * the staff member recorded it at the desk (processed by them), with its receipt.
 */
export async function completePifOnboarding(input: {
  organisation_id: string;
  user_id: string;
  gym_id: string;
  price_id: string;
  payment_method: string;
  processed_by: string;
}) {
  await checkPifOffer(input);
  const created = await createSubscription({
    organisation_id: input.organisation_id,
    user_id: input.user_id,
    gym_id: input.gym_id,
    price_id: input.price_id,
    pif_payment_method: parse(addPifInput.shape.payment_method, input.payment_method),
    processed_by: input.processed_by,
  });
  return created.subscription;
}

export async function resendPifInvite(actor: Actor, memberId: string) {
  const organisationId = staffOrganisation(actor);
  const role = await roleIn(organisationId, memberId);
  const user = role ? await getUserOrNull(memberId) : null;
  const now = await businessNow();
  const pif = (await memberSubscriptions(organisationId, memberId)).find(
    (s) => s.payment_method === "pif" && isLive(s, now),
  );
  if (!user || !role || !pif || !staffGymIds(actor).includes(pif.gym_id)) throw new NotFoundError("member");
  authorize(adminGymIds(actor).includes(pif.gym_id), "Only an admin of this gym can send the invitation.");
  if (user.password_hash)
    throw new ConflictError("This member has already finished registering.", "already_registered");
  await sendPifInvite(organisationId, pif.gym_id, user, (await subscriptionWithPayments(pif)).next_charge);
  return { invite_sent: true };
}
