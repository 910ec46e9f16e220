import { newPassword } from "../auth/password-policy";
import { newSession } from "../auth/session";
import { takeLimit } from "../auth/throttle";
import { firstCode } from "../auth/two-factor";
import { aucklandDate } from "../billing/index";
import { businessNow } from "../clock";
import { messages } from "../contract/fields";
import { registerInput, registrationMessages, uniqueEmailInput } from "../contract/registration";
import { getMany } from "../db/get-many";
import { cancelledTransiently, retryWait } from "../db/retry";
import { db } from "../db/service";
import { sendTransaction, type TransactionParams } from "../db/transact";
import { ConflictError, NotFoundError, RateLimitedError, ValidationError } from "../errors";
import { getGym } from "../gym/service";
import { newMemberRecord } from "../member/search-index";
import { findOffering } from "../offering/store";
import type { Organisation } from "../organisation/service";
import type { OutboxEvents } from "../outbox/events";
import type { OutboxMeta } from "../outbox/outbox";
import { findPayment } from "../payment/store";
import type { PriceRecord } from "../price/present";
import type { RegistrationDefaults, Subscribed } from "../subscription/confirm";
import { findSubscription } from "../subscription/store";
import { newProfileRecord } from "../user/profile";
import { firstRole, roleIn } from "../user/roles";
import { findUserByEmail, getUserOrNull, newUser } from "../user/service";
import { parse } from "../validation";
import { ageOn } from "./age";
import { sendWelcomeEmails } from "./emails";
import { findGymByUuid, minRegistrationAge, resolveLinks } from "./join";

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

/**
 * `POST /api/subscriptions` defaults to what the member chose here (wired to
 * `useRegistrationDefaults` with `markSubscribed` by core.ts `createCore`).
 */
export async function registrationDefaults(
  userId: string,
  organisationId: string | null,
): Promise<RegistrationDefaults | null> {
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
}

/**
 * The outbox's `registration_confirmed` (wired by core.ts): inline, what confirming made and read
 * (`held`); delivered again, read now. Idempotent: the registration is marked (and the welcome
 * emailed) only by the write that finds it unmarked.
 */
export async function registrationConfirmed(
  event: OutboxEvents["registration_confirmed"],
  { held }: OutboxMeta,
) {
  const subscribed = (held as Subscribed | undefined) ?? (await subscribedNow(event));
  if (subscribed) await markSubscribed(event.user_id, subscribed);
}

async function subscribedNow(event: OutboxEvents["registration_confirmed"]): Promise<Subscribed | null> {
  const [subscription, first_payment, user] = await Promise.all([
    findSubscription(event.organisation_id, event.subscription_id),
    findPayment(event.organisation_id, event.payment_id),
    getUserOrNull(event.user_id),
  ]);
  if (!subscription || !first_payment || !user) return null;
  const gym = await getGym(event.organisation_id, subscription.gym_id);
  return { organisation_id: event.organisation_id, subscription, first_payment, user, gym };
}

/**
 * Once subscribed: the registration in the organisation subscribed in is done, and the welcome
 * (and first debit notice) is emailed, from what confirming made and read. One conditional write:
 * a registration already marked (a second confirm) or absent (someone the desk added) is left and
 * emailed nothing.
 */
async function markSubscribed(userId: string, subscribed: Subscribed) {
  const marked = await db()
    .entities.registration.patch({ organisation_id: subscribed.organisation_id, user_id: userId })
    .set({ subscribed_at: new Date().toISOString() })
    .where((attr, op) => op.notExists(attr.subscribed_at))
    .go()
    .then(
      () => true,
      (error: { message?: string }) => {
        if (/conditional/i.test(String(error?.message))) return false;
        throw error;
      },
    );
  if (marked) await sendWelcomeEmails(subscribed).catch(() => undefined);
}

/**
 * Whether someone was a member of the organisation before: they had a subscription there, or
 * the gym added them (imported, or at the desk: a member place with no registration of their
 * own). Someone who registered and never confirmed is not returning.
 */
export async function wasMember(
  organisationId: string,
  userId: string,
  /** Their role record, when the caller has read it already (or is reading it). */
  known?: Awaited<ReturnType<typeof roleIn>> | ReturnType<typeof roleIn>,
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
export async function checkChoice(
  input: {
    gym: string;
    price_id: string;
    price_link?: string | null;
    age_bypass?: string | null;
    start_date: string;
  },
  dob: string | null | undefined,
  /** The gym of `input.gym`, when the caller has looked it up already. */
  found?: Awaited<ReturnType<typeof findGymByUuid>>,
) {
  const gym = found !== undefined ? found : await findGymByUuid(input.gym);
  if (!gym) throw ValidationError.field("gym", registrationMessages.gymOrLink);
  const organisationId = gym.organisation_id;
  // The links, and the organisation and price (one BatchGet), side by side; a dead link is
  // still the first refusal.
  const [linksRead, records] = await Promise.allSettled([
    resolveLinks({ organisationId, price: input.price_link, age_bypass: input.age_bypass }),
    getMany([
      { entity: db().entities.organisation, key: { organisation_id: organisationId } },
      { entity: db().entities.price, key: { organisation_id: organisationId, price_id: input.price_id } },
    ]) as Promise<[Organisation | null, PriceRecord | null]>,
  ]);
  if (linksRead.status === "rejected") {
    if (linksRead.reason instanceof NotFoundError)
      throw ValidationError.field("price_id", "This link is no longer valid. Ask the gym for a new one.");
    throw linksRead.reason;
  }
  const links = linksRead.value;
  const [organisation, price] = settledValue(records);
  if (!organisation) throw new NotFoundError("organisation");

  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => {
    errors[field] = [message];
  };
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
export function isOffered(
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
export async function putRegistration(
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
    .entities.registration.put(registrationRecord(userId, choice, returning))
    .go();
}

function registrationRecord(
  userId: string,
  choice: Parameters<typeof putRegistration>[1],
  returning: boolean,
) {
  return {
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
  };
}

/** A settled promise's value, or its error thrown. */
function settledValue<T>(settled: PromiseSettledResult<T>): T {
  if (settled.status === "rejected") throw settled.reason;
  return settled.value;
}

/**
 * `POST /api/register`: checks the choice (an offered price at the gym; a private one only
 * through its link), the age (the organisation's minimum unless through an age-bypass link), the
 * password and the email; then creates the member, their membership of the gym, the
 * registration record and a session waiting for the emailed code. Answers the cookie token.
 */
export async function register(body: unknown, client: { ip: string; user_agent?: string }) {
  const input = parse(registerInput, body);
  // The limit, the choice's reads and the email's lookup are independent: side by side. Nothing is
  // written before the limit is known.
  const [limit, choice, taken] = await Promise.allSettled([
    takeLimit(`register:${client.ip}`, { limit: REGISTRATIONS_PER_HOUR, windowSeconds: 3600 }),
    checkChoice(input, input.dob),
    findUserByEmail(input.email),
  ]);
  // In the order they were checked one after another: the limit first.
  const limited = settledValue(limit);
  if (!limited.ok)
    throw new RateLimitedError(
      "Too many registrations from this connection. Please try again later.",
      limited.retryAfterSeconds,
    );
  const { gym, organisationId, price, links, errors, fail } = settledValue(choice);
  const password = newPassword.safeParse(input.password);
  if (!password.success) fail("password", password.error.issues[0]?.message ?? "Choose another password");
  if (settledValue(taken)) fail("email", registrationMessages.emailTaken);
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const user = await newUser({ email: input.email, name: input.name, password: input.password });
  const joinedAt = new Date().toISOString();
  // Everything registering makes, in one transaction (docs/performance.md "Fourth round"): the
  // user and their address's claim, their role with the gym's member count, the member record
  // and its search terms (what the role's listener writes for anyone else), the profile, the
  // registration, the session waiting for its code and the code. Nothing of the person can exist
  // without the rest, and the address's claim still decides who gets it.
  const {
    role,
    record: roleRecord,
    counters,
  } = firstRole({
    organisation_id: organisationId,
    user_id: user.user_id,
    member_gym_ids: [gym.gym_id],
  });
  const member = newMemberRecord(
    {
      organisation_id: organisationId,
      user_id: user.user_id,
      name: user.name,
      email: user.email,
      gym_ids: role.member_gym_ids,
    },
    joinedAt,
    SEARCH_TERMS_IN_TRANSACTION,
  );
  const session = newSession({
    user_id: user.user_id,
    two_factor_passed: false,
    ...client,
    current_organisation_id: organisationId,
    current_gym_id: gym.gym_id,
  });
  const code = firstCode(user, gym);
  const transaction = db()
    .transaction.write((e) => [
      e.userEmail.create({ email: user.email, user_id: user.user_id }).commit(),
      e.user.create(user).commit(),
      e.role.create(roleRecord).commit(),
      ...counters.map(([scope, change]) =>
        e.gymPeople.update({ organisation_id: organisationId, scope }).add(change).commit(),
      ),
      e.member.create(member.record).commit(),
      ...member.terms.map((term) => e.memberSearchTerm.put(term).commit()),
      // What they told this organisation is this organisation's (docs/data-model.md "Personal details").
      e.memberProfile
        .put(
          newProfileRecord(organisationId, user.user_id, {
            mobile_number: input.mobile_number,
            dob: input.dob,
          }),
        )
        .commit(),
      e.registration
        .put(
          registrationRecord(
            user.user_id,
            { gym, price: price!, links, start_date: input.start_date },
            false,
          ),
        )
        .commit(),
      e.session.create(session.record).commit(),
      e.code.put(code.record).commit(),
    ])
    .params() as TransactionParams;
  // The code's limits are counters of their own (a new user has used none), taken beside it.
  await Promise.all([writeRegistration(transaction), code.limits()]);
  await Promise.all([member.laterTerms(), code.send()]);
  return { token: session.token, email: user.email };
}

/** A registration's search terms written in its transaction at most (a longer name's follow it). */
const SEARCH_TERMS_IN_TRANSACTION = 20;

/**
 * Sends register's transaction. The address's claim refused: the address is taken (422). A
 * collision (another registration at the same gym adding to its member count at the same
 * instant) is sent again after a wait (db/retry.ts): nothing was written, and every item is
 * conditional on being new.
 */
async function writeRegistration(transaction: TransactionParams) {
  for (let attempt = 0; ; attempt++) {
    const { canceled, data: reasons } = await sendTransaction(transaction);
    if (!canceled) return;
    // The first item is the address's claim.
    if (reasons[0]?.code === "ConditionalCheckFailed")
      throw ValidationError.field("email", registrationMessages.emailTaken);
    if (!cancelledTransiently(reasons) || attempt >= 4)
      throw new ConflictError("Registering met another change at the same moment. Please try again.");
    await retryWait(attempt);
  }
}
