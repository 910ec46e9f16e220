/** `GET /api/me/registration`: the registration state the join site's route guard and pages follow. */

import type { Actor } from "../auth/actor";
import { aucklandDate, formatBasisPoints, formatCents } from "../billing/index";
import { businessNow } from "../clock";
import type { PaymentType } from "../contract/payment";
import type { RegistrationState } from "../contract/registration";
import { NotFoundError } from "../errors";
import { logoUrl } from "../gym/present";
import { getGym } from "../gym/service";
import { findOffering } from "../offering/store";
import { batchContext } from "../payment/context";
import { cardRateOf } from "../payment/surcharge";
import { usablePaymentTypes } from "../payment-type/current-user";
import { myPaymentTypes } from "../payment-type/service";
import { bankTransferOf } from "../pif/transfer";
import { findPrice } from "../price/store";
import { myMemberships } from "../subscription/service";
import { profilePictureUrl } from "../user/picture";
import { getProfile } from "../user/profile";
import { getUser } from "../user/service";
import { presentJoinPrice, takesBank } from "./join";
import { registerFieldsOf } from "./register-fields";
import { isOffered, registrationOf } from "./service";

export function memberOrganisation(actor: Actor) {
  if (!actor.organisationId) throw new NotFoundError("registration");
  return actor.organisationId;
}

/**
 * The gym the member is joining: their registration's, else their session's (from the gyms read
 * with the session when it is among them).
 */
export async function registrationGym(actor: Actor) {
  const organisationId = memberOrganisation(actor);
  const record = await registrationOf(organisationId, actor.userId);
  const gymId = record?.gym_id ?? actor.gymId;
  if (!gymId) throw new NotFoundError("registration");
  const known = actor.gymRecords?.find((gym) => gym.gym_id === gymId);
  return { organisationId, record, gym: known ?? (await getGym(organisationId, gymId)) };
}

/**
 * `GET /api/me/registration`: what the join site's guard and pages need (spec 000 §4): the step
 * the member is at, their choices, payment types, subscription and the gym.
 */
export async function registrationState(actor: Actor): Promise<RegistrationState> {
  const organisationId = memberOrganisation(actor);
  // One read of the organisation for its card rate, its terms and the quote (a context shares
  // it; the session's gyms are in it). What does not need the registration is read beside it.
  const context = batchContext({ gyms: actor.gymRecords });
  const profileRead = getProfile(organisationId, actor.userId);
  const independent = Promise.all([
    getUser(actor.userId),
    profileRead,
    registerFieldsOf(actor, profileRead),
    myPaymentTypes(actor),
    myMemberships(actor, context),
    context.organisationOf(organisationId),
  ]);
  independent.catch(() => undefined);
  const { record, gym } = await registrationGym(actor);
  const [[user, profile, registerFields, paymentTypes, memberships, organisation], surcharge, price] =
    await Promise.all([
      independent,
      cardRateOf(organisationId, gym.gym_id, context),
      record?.price_id ? findPrice(organisationId, record.price_id) : null,
    ]);
  const subscription = memberships.live;
  const offering = price ? await findOffering(organisationId, price.offering_id) : null;
  const today = aucklandDate(await businessNow());
  const { usable, default: found } = usablePaymentTypes(paymentTypes);
  const defaultType = found as PaymentType | null;
  const reauthenticate = defaultType?.type === "bank_account" && defaultType.status === "reauthenticate";
  const welcome = subscription !== null;
  const latest = subscription?.latest_payment ?? null;
  // A pay-in-full bank transfer waiting for staff to mark it received is owed, but nothing failed
  // (issue 34 item 6): only what failed counts, as the subscription's quote says.
  const awaiting =
    subscription?.next_charge?.kind === "awaiting_transfer" ? subscription.next_charge.amount : 0;
  const paymentFailed =
    subscription !== null &&
    (subscription.balance_owing - awaiting > 0 ||
      (latest !== null && ["failed", "declined"].includes(latest.status)));
  const step = welcome
    ? "welcome-to-gym"
    : !profile?.profile_picture
      ? "take-photo"
      : !usable.length || reauthenticate
        ? "choose-payment-method"
        : "confirm-subscription";
  const fixed = surcharge.fixedCents ? ` + ${formatCents(surcharge.fixedCents)}` : "";
  return {
    step,
    welcome,
    name: user.name,
    email: user.email,
    profile_picture: profilePictureUrl(profile?.profile_picture),
    gym: {
      id: gym.gym_id,
      uuid: gym.uuid,
      name: gym.name,
      logo: logoUrl(gym.logo),
      takes_cards: Boolean(gym.stripe_id),
      takes_bank: takesBank(gym),
      app_link: gym.branch_app_id ? `https://${gym.branch_app_id}.app.link` : null,
      has_door_access: Boolean(gym.kisi_place),
    },
    price:
      price && offering
        ? { ...presentJoinPrice(price), offering: { id: offering.offering_id, name: offering.name } }
        : null,
    price_link: record?.price_link ?? null,
    start_date: record?.start_date ?? null,
    billing_date: record?.billing_date ?? null,
    payment_types: usable,
    default_payment_type: defaultType,
    reauthenticate_akahu: reauthenticate,
    payment_failed: paymentFailed,
    general_card_surcharge_text:
      surcharge.percentBasisPoints || surcharge.fixedCents
        ? `Card payments carry a surcharge of ${formatBasisPoints(surcharge.percentBasisPoints)}${fixed} per payment. Bank account payments carry none.`
        : "Card payments carry no surcharge.",
    // Returning: so when they registered, or they have subscribed since (docs/registration.md "Rejoining").
    is_returning_member: Boolean(record?.is_returning_member || record?.subscribed_at),
    // A used choice (subscribed before, membership since ended) counts as none.
    choice_needed:
      !welcome &&
      (!price ||
        !offering ||
        !isOffered(price, offering, gym.gym_id) ||
        !record?.start_date ||
        record.start_date < today ||
        Boolean(record.subscribed_at)),
    register_fields: registerFields,
    subscription,
    ended_subscription: memberships.ended,
    bank_transfer: awaiting > 0 ? bankTransferOf(user.name, gym.destination_account) : null,
    today,
    // The welcome email goes out when a membership is confirmed on the join site (markSubscribed);
    // a member whose membership the gym made was never sent one.
    welcome_emailed: welcome && Boolean(record?.subscribed_at),
    terms_url: organisation.terms_url ?? null,
  };
}
