/** `GET /api/members/{id}`: one member with their latest subscription, its derived states, payments and doors. */

import { doorAccessRecords, visitCount } from "../access/sync";
import type { Actor } from "../auth/actor";
import { staffOrganisation } from "../auth/scope";
import { businessNow } from "../clock";
import type { Member, MemberSubscription } from "../contract/member";
import { nextUpcoming } from "../contract/payment";
import { paymentTypeLabel } from "../contract/payment-type-label";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { listGyms } from "../gym/service";
import type { Organisation } from "../organisation/service";
import { type BillingContext, knownContext } from "../payment/context";
import { clearedFailureIds } from "../payment/debt";
import { presentAsQuoted } from "../payment/present";
import { methodAmong, quoteNextEvent } from "../payment/quote";
import { listMemberPayments } from "../payment/store";
import { withToken } from "../payment-type/bank-connection";
import { listPaymentTypeRecords, type PaymentTypeRecord } from "../payment-type/service";
import { presentSubscription } from "../subscription/present";
import { latestPaymentOf } from "../subscription/service";
import { findSubscriptions, memberSubscriptions, type SubscriptionRecord } from "../subscription/store";
import { titleCase } from "../text";
import { profilePictureUrl } from "../user/picture";
import { type Profile, switchesOf } from "../user/profile";
import type { getUserOrNull } from "../user/service";
import { findMember, type MemberRecord, reaches } from "./service";
import { stateOf } from "./state";

/**
 * One round of reads (the page is the back office's busiest call, docs/performance.md "Load"):
 * the member, their user, their profile, their bank connection and the organisation (the quote's
 * rates) in one BatchGet, and beside it
 * their subscriptions (newest first; the latest among them, or by its id when the index has not
 * listed it yet), payment types, recent payments, doors and visits. The reach check
 * (memberInReach's rule) comes before anything is answered. The
 * gyms' names come from the actor's gyms, read with the session, unless the member is at a gym
 * the actor does not reach.
 */
export async function readMember(actor: Actor, userId: string): Promise<Member> {
  const organisationId = staffOrganisation(actor);
  const key = { organisation_id: organisationId, user_id: userId };
  // Everything keyed by the member's id is read in one round: the member record is not needed to
  // know what to read, only to check reach before anything is answered.
  const [
    [stored, user, connection, stored_profile, organisation],
    subs,
    paymentTypes,
    payments,
    doors,
    visits,
    now,
  ] = await Promise.all([
    getMany([
      { entity: db().entities.member, key },
      { entity: db().entities.user, key: { user_id: userId } },
      { entity: db().entities.akahuConnection, key },
      { entity: db().entities.memberProfile, key },
      // For the quote of the next money event (its rates), read here rather than after.
      { entity: db().entities.organisation, key: { organisation_id: organisationId } },
    ]) as Promise<
      [
        MemberRecord | null,
        Awaited<ReturnType<typeof getUserOrNull>>,
        Parameters<typeof withToken>[0] | null,
        Profile | null,
        Organisation | null,
      ]
    >,
    memberSubscriptions(organisationId, userId),
    listPaymentTypeRecords(organisationId, userId),
    listMemberPayments(organisationId, userId, { limit: 10 }),
    doorAccessRecords(organisationId, userId),
    visitCount(organisationId, userId),
    businessNow(),
  ]);
  // What the person told this organisation, and nothing they told another (docs/data-model.md).
  const profile: Partial<Profile> = stored_profile ?? {};
  // A member from before the member record existed is indexed on first sight (findMember).
  const member = stored ?? (await findMember(organisationId, userId));
  if (!member) throw new NotFoundError("member");
  const latestId = member.latest_subscription_id;
  const gyms = member.gym_ids.every((id) => actor.gymIds.includes(id))
    ? actor.gyms
    : await listGyms(organisationId);
  const sub = latestId
    ? (subs.find((s) => s.subscription_id === latestId) ?? (await latestOf(member)) ?? subs[0] ?? null)
    : (subs[0] ?? null);
  if (!reaches(actor, member, sub)) throw new NotFoundError("member");
  const akahu = connection ? safely(() => withToken(connection)) : null;
  if (!user) throw new NotFoundError("member");
  // The quote's facts are in hand: the organisation read above, the gym read with the session, the
  // payment types listed above (no round of its own).
  const known = knownContext({ organisation, gyms: actor.gymRecords });
  const subView = sub ? await subscriptionView(sub, payments.items, now, known, paymentTypes) : null;
  const def = paymentTypes.find((p) => p.is_default) ?? null;
  return {
    id: userId,
    name: titleCase(member.name || user.name),
    email: user.email,
    mobile_number: profile.mobile_number ?? null,
    dob: profile.dob ?? null,
    ...switchesOf(stored_profile),
    emergency_contact: {
      name: profile.emergency_contact_name ?? null,
      email: profile.emergency_contact_email ?? null,
      mobile_number: profile.emergency_contact_mobile_number ?? null,
      relationship: profile.emergency_contact_relationship ?? null,
    },
    latest_subscription: subView,
    state: stateOf(sub, now),
    default_payment_type: def
      ? { id: def.payment_type_id, type: def.type, label: paymentTypeLabel(def) }
      : null,
    payment_types: paymentTypes.map((p) => ({
      id: p.payment_type_id,
      type: p.type,
      label: paymentTypeLabel(p),
      status: p.status,
      is_default: p.is_default,
    })),
    // Newest due first (a break fee or manual payment is recorded later than the payments around it).
    recent_payments: [...payments.items]
      .sort((a, b) =>
        a.due_on === b.due_on ? b.payment_id.localeCompare(a.payment_id) : b.due_on.localeCompare(a.due_on),
      )
      // The upcoming payment the quote is of, as quoted (payment/present.ts).
      .map(presentAsQuoted(subView?.next_charge, clearedFailureIds(payments.items))),
    profile_picture: profilePictureUrl(profile.profile_picture),
    visits_count: visits,
    notes: member.notes ?? null,
    access_control_credentials: doors
      .filter((d) => d.holder === "member" && d.credential_id)
      .map((d) => ({ id: d.credential_id as string, status: d.status })),
    reauthenticate_akahu: def?.type === "bank_account" && def.status === "reauthenticate",
    has_akahu_connection: Boolean(akahu),
    is_returning_member: subs.length > 1,
    address: profile.address ?? null,
    suburb: profile.suburb ?? null,
    city: profile.city ?? null,
    post_code: profile.post_code ?? null,
    confidence_and_experience: profile.confidence_and_experience ?? null,
    hear_about_us: profile.hear_about_us ?? null,
    tags: member.tags ?? [],
    gyms: gyms.filter((g) => member.gym_ids.includes(g.gym_id)).map((g) => ({ id: g.gym_id, name: g.name })),
    should_onboard: !user.password_hash,
    invited_at: null,
    created_at: member.joined_at,
    updated_at: member.updated_at,
    deleted_at: member.deleted_at ?? null,
  };
}

/** The latest subscription by its id, when the member's subscriptions did not list it yet (index lag). */
async function latestOf(member: MemberRecord): Promise<SubscriptionRecord | undefined> {
  const id = member.latest_subscription_id!;
  const found = await findSubscriptions([{ organisation_id: member.organisation_id, subscription_id: id }]);
  return found.get(id);
}

function safely<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

async function subscriptionView(
  sub: SubscriptionRecord,
  recent: Awaited<ReturnType<typeof listMemberPayments>>["items"],
  now: Date,
  known: BillingContext,
  paymentTypes: PaymentTypeRecord[],
): Promise<MemberSubscription> {
  const mine = recent.filter((p) => p.subscription_id === sub.subscription_id);
  const upcoming = nextUpcoming(mine);
  const view = presentSubscription(sub, {
    now,
    upcomingPayment: upcoming,
    firstPayment: mine.find((p) => p.payment_id === sub.first_payment_id) ?? null,
    latestPayment: latestPaymentOf(sub, mine),
    // The one quote of the next money event: the owed figure and the upcoming row show it (issue 34).
    nextCharge: await quoteNextEvent(sub, mine, known, methodAmong(sub, paymentTypes)),
  });
  const { payments: _p, ...rest } = view;
  return rest as MemberSubscription;
}
