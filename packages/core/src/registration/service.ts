/**
 * A member joining a gym on the join site (spec 000 §4 and §7, 001 §7 Registration-side):
 * the email check, registering (the member, their place in the organisation, what they chose
 * and a session waiting for the emailed code), the registration state the site's route guard
 * follows, the register fields, the profile photo and saving a card or bank account. The money
 * engine does the rest (`POST /api/subscriptions` reads this module's record as its defaults).
 * docs/registration.md.
 */
import { createHash } from "node:crypto";
import { type Actor, actorFor } from "../auth/actor";
import { newPassword } from "../auth/password-policy";
import { createSession, setSessionContext } from "../auth/session";
import { takeLimit } from "../auth/throttle";
import { issueCode } from "../auth/two-factor";
import { aucklandDate, formatBasisPoints, formatCents } from "../billing/index";
import { businessNow } from "../clock";
import { config } from "../config";
import { messages } from "../contract/fields";
import type { PaymentType } from "../contract/payment";
import {
  answerLabel,
  type CardSetup,
  confidenceLabels,
  hearAboutUsLabels,
  membershipChoiceInput,
  PROFILE_PICTURE_MAX_BYTES,
  type RegisterFields,
  type RegistrationState,
  registerFieldsInput,
  registerInput,
  registrationMessages,
  uniqueEmailInput,
} from "../contract/registration";
import { db } from "../db/service";
import { ConflictError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from "../errors";
import { sniffImage } from "../gym/logo";
import { logoUrl } from "../gym/present";
import { getGym } from "../gym/service";
import { findOffering } from "../offering/store";
import { getOrganisation } from "../organisation/service";
import { cardRateOf } from "../payment/surcharge";
import {
  myPaymentTypes,
  savePaymentTypeFromAkahu,
  savePaymentTypeFromSetupIntent,
  startCardSetup,
} from "../payment-type/service";
import { findPrice } from "../price/store";
import { fileStore } from "../providers/files/index";
import { stripeProvider } from "../providers/stripe/index";
import { useRegistrationDefaults } from "../subscription/confirm";
import { activeSubscriptionOf, myActiveSubscription } from "../subscription/service";
import { profilePictureUrl } from "../user/picture";
import { isStaffRole, putRole, roleIn, rolesOfUser } from "../user/roles";
import { createUser, findUserByEmail, getUser } from "../user/service";
import { parse } from "../validation";
import { ageOn } from "./age";
import { sendWelcomeEmails } from "./emails";
import { findGymByUuid, minRegistrationAge, presentJoinPrice, resolveLinks, takesBank } from "./join";

/** Registrations per client address: enough for a gym's front desk, not for a script. */
export const REGISTRATIONS_PER_HOUR = 30;
/** Email checks per client address (the check says whether an address has an account). */
export const EMAIL_CHECKS_PER_15_MINUTES = 60;

export async function registrationOf(organisationId: string, userId: string) {
  const { data } = await db()
    .entities.registration.get({ organisation_id: organisationId, user_id: userId })
    .go();
  return data;
}

/** `POST /api/subscriptions` defaults to what the member chose here, and marks them subscribed (core.ts `createCore`). */
export function registerRegistrationDefaults() {
  useRegistrationDefaults(
    async (userId, organisationId) => {
      if (!organisationId) return null;
      const record = await registrationOf(organisationId, userId);
      return record
        ? {
            price_id: record.price_id,
            gym_id: record.gym_id,
            start_date: record.start_date,
            billing_date: record.billing_date,
            linked_price_id: record.price_link_id ? (record.price_id ?? null) : null,
          }
        : null;
    },
    (userId) => markSubscribed(userId),
  );
}

/** Once subscribed: the registration is done, and the welcome (and first debit notice) is emailed. */
async function markSubscribed(userId: string) {
  for (const role of await rolesOfUser(userId)) {
    const record = await registrationOf(role.organisation_id, userId);
    if (!record || record.subscribed_at) continue;
    await db()
      .entities.registration.patch({ organisation_id: role.organisation_id, user_id: userId })
      .set({ subscribed_at: new Date().toISOString() })
      .go();
    await sendWelcomeEmails(role.organisation_id, userId).catch(() => undefined);
  }
}

/**
 * Whether someone was a member of the organisation before: they had a subscription there, or
 * the gym added them (imported, or at the desk: a member place with no registration of their
 * own). Someone who registered and never confirmed is not returning.
 */
async function wasMember(
  organisationId: string,
  userId: string,
  /** Their role record, when the caller has read it already. */
  known?: Awaited<ReturnType<typeof roleIn>>,
) {
  const key = { organisation_id: organisationId, user_id: userId };
  const [role, record, { data: subs }] = await Promise.all([
    known !== undefined ? known : roleIn(organisationId, userId),
    registrationOf(organisationId, userId),
    db().entities.subscription.query.byMember(key).go({ limit: 1 }),
  ]);
  if (subs.length > 0) return true;
  return Boolean(role?.member_gym_ids.length) && (!record || record.is_returning_member);
}

/** `POST /api/unique-email`: whether an address is free to register (and whether it is a past member's). */
export async function checkUniqueEmail(body: unknown, client: { ip: string }) {
  const { email, gym } = parse(uniqueEmailInput, body);
  const limit = await takeLimit(`unique-email:${client.ip}`, {
    limit: EMAIL_CHECKS_PER_15_MINUTES,
    windowSeconds: 15 * 60,
  });
  if (!limit.ok)
    throw new RateLimitedError("Too many checks. Please wait a few minutes.", limit.retryAfterSeconds);
  const user = await findUserByEmail(email);
  if (!user) return { unique: true, is_returning_member: false, message: null };
  const gymRecord = gym ? await findGymByUuid(gym) : null;
  const returning = gymRecord ? await wasMember(gymRecord.organisation_id, user.user_id) : false;
  return {
    unique: false,
    is_returning_member: returning,
    message: returning
      ? "Welcome back! You already have an account with us. Sign in to rejoin."
      : registrationMessages.emailTaken,
  };
}

/**
 * The rules of a choice on the join site, shared by registering and by a signed-in member
 * choosing again: an offered price at the gym (a private one only through its link), the age
 * (the organisation's minimum unless through an age-bypass link) and a start date from today.
 * Collects field errors for the caller to add its own to; an unknown gym or dead link throws.
 */
async function checkChoice(
  input: {
    gym: string;
    price_id: string;
    price_link?: string | null;
    age_bypass?: string | null;
    start_date: string;
  },
  dob: string | null | undefined,
) {
  const gym = await findGymByUuid(input.gym);
  if (!gym) throw ValidationError.field("gym", registrationMessages.gymOrLink);
  const organisationId = gym.organisation_id;
  let links: Awaited<ReturnType<typeof resolveLinks>>;
  try {
    links = await resolveLinks({ organisationId, price: input.price_link, age_bypass: input.age_bypass });
  } catch (error) {
    if (error instanceof NotFoundError)
      throw ValidationError.field("price_id", "This link is no longer valid. Ask the gym for a new one.");
    throw error;
  }

  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => {
    errors[field] = [message];
  };
  const [organisation, price] = await Promise.all([
    getOrganisation(organisationId),
    findPrice(organisationId, input.price_id),
  ]);
  const offering = price ? await findOffering(organisationId, price.offering_id) : null;
  const offered =
    price &&
    offering &&
    isOffered(price, offering, gym.gym_id) &&
    (!price.private || links.linkedPrice?.price_id === price.price_id);
  if (!offered) fail("price_id", registrationMessages.priceUnavailable);

  const today = aucklandDate(await businessNow());
  if (!dob) fail("dob", messages.required);
  else if (dob >= today) fail("dob", registrationMessages.dobFuture);
  else {
    const minAge = minRegistrationAge(organisation);
    if (ageOn(dob, today) < minAge && !links.ageBypassLinkId)
      fail("dob", registrationMessages.tooYoung(minAge));
  }
  if (input.start_date < today) fail("start_date", registrationMessages.startPast);
  return { gym, organisationId, price, links, today, errors, fail };
}

/** A price the join site may offer at a gym: it and its offering live, the offering for that gym. */
function isOffered(
  price: { archived_at?: string | null },
  offering: { archived_at?: string | null; all_gyms_access: boolean; gym_ids: string[] },
  gymId: string,
) {
  return (
    !price.archived_at &&
    !offering.archived_at &&
    (offering.all_gyms_access || offering.gym_ids.includes(gymId))
  );
}

/** What the member chose, as `POST /api/subscriptions` will read it (a put: a new choice starts afresh). */
async function putRegistration(
  userId: string,
  choice: {
    gym: { organisation_id: string; gym_id: string };
    price: { price_id: string };
    links: Awaited<ReturnType<typeof resolveLinks>>;
    start_date: string;
  },
  returning: boolean,
) {
  await db()
    .entities.registration.put({
      organisation_id: choice.gym.organisation_id,
      user_id: userId,
      gym_id: choice.gym.gym_id,
      price_id: choice.price.price_id,
      price_link: choice.links.linkedPrice?.token,
      price_link_id: choice.links.linkedPrice?.link_id,
      age_bypass_link_id: choice.links.ageBypassLinkId ?? undefined,
      start_date: choice.start_date,
      billing_date: choice.start_date,
      is_returning_member: returning,
    })
    .go();
}

/**
 * `PUT /api/me/registration`: a signed-in member chooses a membership at a gym (by its link):
 * a past member rejoining, someone with an account at another gym or organisation, or a member
 * changing their mind before confirming. Refused while they have a live membership in that
 * organisation (409) and for staff accounts (403). Their place at the gym is added, the
 * registration record starts afresh (not subscribed), and the session moves to that gym; the
 * answer is the new registration state (photo and payment methods they already have count).
 */
export async function chooseMembership(actor: Actor, body: unknown): Promise<RegistrationState> {
  const input = parse(membershipChoiceInput, body);
  if (actor.isStaff) throw new ForbiddenError(registrationMessages.staffAccount);
  const user = await getUser(actor.userId);
  const { gym, organisationId, price, links, errors } = await checkChoice(input, user.dob ?? input.dob);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const [active, role] = await Promise.all([
    activeSubscriptionOf(organisationId, actor.userId),
    roleIn(organisationId, actor.userId),
  ]);
  if (active) throw new ConflictError(registrationMessages.alreadyMember, "already_member");
  if (role && isStaffRole(role)) throw new ForbiddenError(registrationMessages.staffAccount);
  const returning = await wasMember(organisationId, actor.userId, role);
  if (!user.dob && input.dob)
    await db().entities.user.patch({ user_id: actor.userId }).set({ dob: input.dob }).go();
  if (!role?.member_gym_ids.includes(gym.gym_id))
    await putRole({
      organisation_id: organisationId,
      user_id: actor.userId,
      member_gym_ids: [...(role?.member_gym_ids ?? []), gym.gym_id],
    });
  await putRegistration(actor.userId, { gym, price: price!, links, start_date: input.start_date }, returning);
  const context = { current_organisation_id: organisationId, current_gym_id: gym.gym_id };
  await setSessionContext(actor.sessionId, context);
  return registrationState(
    await actorFor({ session_id: actor.sessionId, user_id: actor.userId, ...context }),
  );
}

/**
 * `POST /api/register`: checks the choice (an offered price at the gym; a private one only
 * through its link), the age (the organisation's minimum unless through an age-bypass link), the
 * password and the email; then creates the member, their membership of the gym, the
 * registration record and a session waiting for the emailed code. Answers the cookie token.
 */
export async function register(body: unknown, client: { ip: string; user_agent?: string }) {
  const input = parse(registerInput, body);
  const limit = await takeLimit(`register:${client.ip}`, {
    limit: REGISTRATIONS_PER_HOUR,
    windowSeconds: 3600,
  });
  if (!limit.ok)
    throw new RateLimitedError(
      "Too many registrations from this connection. Please try again later.",
      limit.retryAfterSeconds,
    );
  const { gym, organisationId, price, links, errors, fail } = await checkChoice(input, input.dob);
  const password = newPassword.safeParse(input.password);
  if (!password.success) fail("password", password.error.issues[0]?.message ?? "Choose another password");
  if (await findUserByEmail(input.email)) fail("email", registrationMessages.emailTaken);
  if (Object.keys(errors).length) throw new ValidationError(errors);

  let user: Awaited<ReturnType<typeof createUser>>;
  try {
    user = await createUser({
      email: input.email,
      name: input.name,
      password: input.password,
      mobile_number: input.mobile_number,
      dob: input.dob,
    });
  } catch (error) {
    if (error instanceof ConflictError) throw ValidationError.field("email", registrationMessages.emailTaken);
    throw error;
  }
  await putRole({ organisation_id: organisationId, user_id: user.user_id, member_gym_ids: [gym.gym_id] });
  await putRegistration(user.user_id, { gym, price: price!, links, start_date: input.start_date }, false);
  const { token, session } = await createSession({
    user_id: user.user_id,
    two_factor_passed: false,
    ...client,
  });
  await setSessionContext(session.session_id, {
    current_organisation_id: organisationId,
    current_gym_id: gym.gym_id,
  });
  await issueCode(user.user_id);
  return { token, email: user.email };
}

function presentRegisterFields(user: Awaited<ReturnType<typeof getUser>>): RegisterFields {
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

function memberOrganisation(actor: Actor) {
  if (!actor.organisationId) throw new NotFoundError("registration");
  return actor.organisationId;
}

/** The gym the member is joining: their registration's, else their session's. */
async function registrationGym(actor: Actor) {
  const organisationId = memberOrganisation(actor);
  const record = await registrationOf(organisationId, actor.userId);
  const gymId = record?.gym_id ?? actor.gymId;
  if (!gymId) throw new NotFoundError("registration");
  return { organisationId, record, gym: await getGym(organisationId, gymId) };
}

export { profilePictureUrl } from "../user/picture";

/**
 * `GET /api/me/registration`: what the join site's guard and pages need (spec 000 §4): the step
 * the member is at, their choices, payment types, subscription and the gym.
 */
export async function registrationState(actor: Actor): Promise<RegistrationState> {
  const { organisationId, record, gym } = await registrationGym(actor);
  const [user, paymentTypes, subscription, surcharge, organisation] = await Promise.all([
    getUser(actor.userId),
    myPaymentTypes(actor),
    myActiveSubscription(actor),
    cardRateOf(organisationId, gym.gym_id),
    getOrganisation(organisationId),
  ]);
  const price = record?.price_id ? await findPrice(organisationId, record.price_id) : null;
  const offering = price ? await findOffering(organisationId, price.offering_id) : null;
  const today = aucklandDate(await businessNow());
  const usable = paymentTypes.filter((p) => p.status === "active" || p.status === "reauthenticate");
  const defaultType = (usable.find((p) => p.is_default) ?? null) as PaymentType | null;
  const reauthenticate = defaultType?.type === "bank_account" && defaultType.status === "reauthenticate";
  const welcome = subscription !== null;
  const latest = subscription?.latest_payment ?? null;
  const paymentFailed =
    subscription !== null &&
    (subscription.balance_owing > 0 || (latest !== null && ["failed", "declined"].includes(latest.status)));
  const step = welcome
    ? "welcome-to-gym"
    : !user.profile_picture
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
    profile_picture: profilePictureUrl(user.profile_picture),
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
    is_returning_member: record?.is_returning_member ?? false,
    // A used choice (subscribed before, membership since ended) counts as none.
    choice_needed:
      !welcome &&
      (!price ||
        !offering ||
        !isOffered(price, offering, gym.gym_id) ||
        !record?.start_date ||
        record.start_date < today ||
        Boolean(record.subscribed_at)),
    register_fields: presentRegisterFields(user),
    subscription,
    today,
    // The welcome email goes out when a membership is confirmed on the join site (markSubscribed);
    // a member whose membership the gym made was never sent one.
    welcome_emailed: welcome && Boolean(record?.subscribed_at),
    terms_url: organisation.terms_url ?? null,
  };
}

/**
 * `POST /api/profile-picture`: the member's photo (JPEG, PNG or WebP by content, at most 5 MB;
 * the join site sends a square JPEG it has already cropped and shrunk).
 */
export async function uploadProfilePicture(actor: Actor, file: unknown) {
  if (!file || typeof file !== "object" || typeof (file as Blob).arrayBuffer !== "function")
    throw ValidationError.field("file", "Value is required");
  if ((file as Blob).size > PROFILE_PICTURE_MAX_BYTES)
    throw ValidationError.field("file", "The photo may be at most 5 MB");
  const bytes = new Uint8Array(await (file as Blob).arrayBuffer());
  if (!bytes.length) throw ValidationError.field("file", "Value is required");
  const type = sniffImage(bytes);
  if (!type) throw ValidationError.field("file", "The photo must be a JPEG, PNG or WebP image");
  const ext = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" }[type];
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  const key = `profile-pictures/${actor.userId}/${hash}.${ext}`;
  await fileStore().put(key, bytes, type);
  await db().entities.user.patch({ user_id: actor.userId }).set({ profile_picture: key }).go();
  return { profile_picture: profilePictureUrl(key)! };
}

/**
 * A profile photo: its owner, or staff of an organisation the person belongs to (by the
 * staff's current organisation), may see it; anyone else is answered 404.
 */
export async function readProfilePicture(actor: Actor, userId: string, file: string) {
  if (!/^[0-9A-Z]{26}$/.test(userId) || !/^[0-9a-f]{20}\.(png|jpg|webp)$/.test(file))
    throw new NotFoundError("file");
  const mine = actor.userId === userId;
  const staffOfTheirs =
    actor.isStaff && actor.organisationId ? Boolean(await roleIn(actor.organisationId, userId)) : false;
  if (!mine && !staffOfTheirs) throw new NotFoundError("file");
  const user = await getUser(userId).catch(() => null);
  const key = `profile-pictures/${userId}/${file}`;
  if (!user || user.profile_picture !== key) throw new NotFoundError("file");
  const stored = await fileStore().get(key);
  if (!stored) throw new NotFoundError("file");
  return stored;
}

/**
 * Starts saving a card on the gym's connected Stripe account (a SetupIntent for the member's
 * Customer there). Locally, where Stripe is simulated, it also answers the simulator's card form,
 * which returns to `/card-details` as Stripe.js does.
 */
export async function startCard(actor: Actor): Promise<CardSetup> {
  const { gym } = await registrationGym(actor);
  const intent = await startCardSetup(actor, { gym_id: gym.gym_id });
  const stripe = stripeProvider();
  const simulated = stripe.mode === "simulated";
  return {
    setup_intent_id: intent.setup_intent_id,
    client_secret: intent.client_secret,
    stripe_account: intent.stripe_account,
    form_url:
      stripe.cardFormUrl?.({
        account: intent.stripe_account,
        setupIntentId: intent.setup_intent_id,
        clientSecret: intent.client_secret,
        returnUrl: `${config.joinUrl}/card-details`,
      }) ?? null,
    publishable_key: simulated ? null : (config.stripePublishableKey ?? null),
  };
}

/** The confirmed SetupIntent's card becomes the member's default payment type. */
export async function saveCard(actor: Actor, body: { setup_intent_id: string }) {
  const { gym } = await registrationGym(actor);
  return savePaymentTypeFromSetupIntent(actor, { gym_id: gym.gym_id, setup_intent_id: body.setup_intent_id });
}

/** The account the member picked from their synced Akahu accounts becomes their default payment type. */
export async function saveBankAccount(actor: Actor, body: { account_id: string }) {
  memberOrganisation(actor);
  return savePaymentTypeFromAkahu(actor, body);
}
