/**
 * Subscriptions: making one (with its first payment, the price's and offering's counters in the
 * same transaction), reading them, and presenting them with their derived states.
 * Over 300 lines because `createSubscription` is one transaction (subscription, first payment,
 * counters) that reads best whole; the lifecycle operations are subscription/operations/.
 */

import { z } from "zod";
import type { Actor } from "../auth/actor";
import { authorize, inGym, policy } from "../auth/policy";
import {
  addDays,
  aucklandDate,
  type CivilDate,
  civilDateSchema,
  startOfAucklandDay,
} from "../billing/calendar";
import { isTermMembership, pifEnd, termEnd } from "../billing/term";
import { billingDateAfterTrial, type TrialJoin } from "../billing/trial";
import { businessNow } from "../clock";
import { nextUpcoming } from "../contract/payment";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { putItem, sendTransaction, type TransactionParams } from "../db/transact";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { findOffering } from "../offering/store";
import type { Organisation } from "../organisation/service";
import { organisationSettings } from "../organisation/settings";
import { deliverCommitted, outboxEvent, outboxItem } from "../outbox/outbox";
import { type BillingContext, gymOf, knownContext } from "../payment/context";
import { ledgerDebt } from "../payment/debt";
import { notePaymentMonths } from "../payment/months";
import { newPayment } from "../payment/new-payment";
import { presentPayment } from "../payment/present";
import { methodAmong, quoteNextEvent } from "../payment/quote";
import { listMemberPayments, type PaymentRecord } from "../payment/store";
import { defaultPaymentTypeOf, findPaymentType, type PaymentTypeRecord } from "../payment-type/service";
import { type PriceRecord, priceLabel } from "../price/present";
import { findPrice } from "../price/store";
import { type PromoJoin, promoForJoin, promoJoinItems } from "../promo/join";
import { racePoint } from "../race-points";
import { paymentRollup, scheduledChanges } from "../rollup/money";
import { joinDelta, rollupChange, writeCounted } from "../rollup/writes";
import { trialForJoin, trialJoinItems } from "../trial/join";
import type { getUser } from "../user/service";
import { parse } from "../validation";
import { claimItems, readMembershipClaim } from "./claim";
import type { Subscribed } from "./confirm";
import type { SubscribedRead } from "./events";
import { presentSubscription } from "./present";
import { chargeAfterOf } from "./schedule";
import {
  findSubscription,
  isLive,
  memberSubscriptions,
  type SubscriptionRecord,
  scheduleKeys,
} from "./store";

export { isLive };

export interface CreateSubscriptionInput {
  organisation_id: string;
  user_id: string;
  gym_id: string;
  price_id: string;
  /** Civil date (Pacific/Auckland); default today (business clock). */
  start_date?: CivilDate;
  /** The anchor of full periods; default the start date. */
  billing_date?: CivilDate;
  /** Default: the member's default payment type. Not needed for PIF paid in person. */
  payment_type_id?: string | null;
  /** PIF recorded by staff: how it is paid. bank_transfer waits as `awaiting_payment`. */
  pif_payment_method?: "eftpos" | "cash" | "bank_transfer";
  /** The staff member recording a PIF paid in person. */
  processed_by?: string;
  private_price_link_id?: string;
  /** `memberReads` of this member, started by the caller before it knew the rest of the input. */
  member_reads?: MemberReads;
  /**
   * The caller's work once the subscription is committed (its answer, the join's registration
   * marked), run beside the subscription's subscribers instead of after them.
   */
  beside_subscribers?: (made: CreatedSubscription) => Promise<unknown>;
  /** The gym's record when this request has read it already (the session's gyms): not read again. */
  gym?: Awaited<ReturnType<typeof gymOf>>;
  /** Subscriptions made for seeding or tests may give their own id. */
  subscription_id?: string;
  /** A promo code (docs/offers.md): checked, its terms snapshotted, its use counted in the transaction. */
  promo_code?: string;
  /**
   * A member choosing for themselves (the join site's confirm): a private price is refused unless
   * it is the one their link opened (this id; null for none). Left out when staff choose.
   */
  linked_price_id?: string | null;
  /**
   * The member confirmed what they chose at registration (`POST /api/subscriptions`,
   * subscription/confirm.ts): the `registration_confirmed` outbox event is written with the
   * subscription (the registration marked done, the welcome emailed).
   */
  confirms_registration?: boolean;
}

export interface CreatedSubscription {
  subscription: SubscriptionRecord;
  first_payment: PaymentRecord;
  /** What was read to make it, in this request (for the caller's answer and emails, not kept). */
  read: {
    organisation: Organisation;
    gym: Awaited<ReturnType<typeof gymOf>>;
    user: Awaited<ReturnType<typeof getUser>>;
    paymentType: PaymentTypeRecord | null;
  };
}

/**
 * What making a subscription reads that is keyed by the member alone: their user, the
 * organisation, their subscriptions, their membership claim (through those subscriptions when it
 * has none) and the payment type to charge (the one named, else their default; `false`: none, a
 * pay-in-full taken in person). The join site's confirm starts these beside its read of the
 * registration (the price and gym come from it).
 */
export function memberReads(
  organisationId: string,
  userId: string,
  now: Date,
  paymentTypeId: string | null | undefined | false,
) {
  const subscriptions = memberSubscriptions(organisationId, userId);
  // The user, the organisation and the claim in one BatchGet, read consistently (as the claim is).
  const records = getMany(
    [
      { entity: db().entities.user, key: { user_id: userId } },
      { entity: db().entities.organisation, key: { organisation_id: organisationId } },
      { entity: db().entities.membershipClaim, key: { organisation_id: organisationId, user_id: userId } },
    ],
    { consistent: true },
  ) as Promise<[UserRecord | null, Organisation | null, { subscription_id: string } | null]>;
  const all = Promise.all([
    records.then(([user]) => user ?? Promise.reject(new NotFoundError("user"))),
    records.then(([, organisation]) => organisation ?? Promise.reject(new NotFoundError("organisation"))),
    subscriptions,
    readMembershipClaim(
      organisationId,
      userId,
      now,
      subscriptions,
      records.then(([, , claim]) => claim),
    ),
    paymentTypeId === false
      ? null
      : paymentTypeId
        ? findPaymentType(organisationId, userId, paymentTypeId)
        : defaultPaymentTypeOf(organisationId, userId),
  ]);
  all.catch(() => undefined);
  return all;
}
export type MemberReads = ReturnType<typeof memberReads>;
type UserRecord = Awaited<ReturnType<typeof getUser>>;

/**
 * Makes a subscription and its first payment (from the schedule: pro-rata and joining fee
 * included) in one transaction with the price's `subscriptions_count` and, for the member's first
 * live subscription to the offering at the gym, the offering's member counter. The first payment
 * is `upcoming` in the due index (charged by the billing run of its due date), or for PIF paid
 * in person `sent` / `awaiting_payment`.
 */
export async function createSubscription(input: CreateSubscriptionInput): Promise<CreatedSubscription> {
  const organisationId = input.organisation_id;
  const now = await businessNow();
  const today = aucklandDate(now);
  // Everything keyed by the input is read beside the price (only the offering waits for it); the
  // checks below still come in their order, so the same input gets the same refusal. What is keyed
  // by the member alone may have been started earlier by the caller (`memberReads`).
  const reads = Promise.all([
    input.gym?.gym_id === input.gym_id ? input.gym : gymOf(organisationId, input.gym_id),
    input.member_reads ??
      memberReads(
        organisationId,
        input.user_id,
        now,
        input.pif_payment_method ? false : input.payment_type_id,
      ),
  ]).then(([gym, member]) => [gym, ...member] as const);
  reads.catch(() => undefined);
  const price = await findPrice(organisationId, input.price_id);
  if (!price || price.archived_at) throw new NotFoundError("price");
  if (input.linked_price_id !== undefined && price.private && price.price_id !== input.linked_price_id)
    throw ValidationError.field("price_id", "This price is offered only through its private link.");
  const startDate = input.start_date ?? today;
  // Whether the member has had the price's trial needs only the price: read beside its offering.
  const trialRead = trialForJoin(organisationId, input.user_id, price, startDate);
  trialRead.catch(() => undefined);
  const offering = await findOffering(organisationId, price.offering_id);
  if (!offering || offering.archived_at) throw new NotFoundError("offering");
  if (!offering.all_gyms_access && !offering.gym_ids.includes(input.gym_id)) {
    throw ValidationError.field("gym_id", "This membership is not offered at that gym.");
  }
  const [gym, user, organisation, existing, claim, foundType] = await reads;
  const settings = organisationSettings(organisation);
  if (claim.live) throw await alreadyMember(claim.live);
  const promoInput = {
    organisation_id: organisationId,
    user_id: input.user_id,
    gym_id: input.gym_id,
    price,
    code: input.promo_code ?? "",
    today,
  };
  let promo: PromoJoin | null = input.promo_code ? await promoForJoin(promoInput) : null;

  const isPif = price.billing_frequency === "one_off";
  let paymentType: PaymentTypeRecord | null = null;
  if (!input.pif_payment_method) {
    paymentType = foundType ?? null;
    if (!paymentType) throw ValidationError.field("payment_type_id", "Add a payment method first.");
  }
  const method = input.pif_payment_method ? "pif" : (paymentType?.type ?? "stripe_card");

  if (startDate < today) throw ValidationError.field("start_date", "The start date cannot be in the past.");
  // The price's trial, once per member (docs/offers.md "Trials"): the paid periods start after it.
  const trial: TrialJoin | null = await trialRead;
  const billingDate = isPif
    ? startDate
    : trial
      ? billingDateAfterTrial(trial, input.billing_date)
      : (input.billing_date ?? startDate);
  const subscriptionId = input.subscription_id ?? newId();
  const term =
    isTermMembership(price) && price.term_amount != null && price.term_unit != null
      ? { ends: termEnd(startDate, price.term_amount, price.term_unit) }
      : null;
  const subscription: SubscriptionRecord = {
    organisation_id: organisationId,
    subscription_id: subscriptionId,
    // In the schedule index until it ends: the daily schedule check sweeps it (payment/schedule-check.ts).
    ...scheduleKeys({ subscription_id: subscriptionId }),
    user_id: input.user_id,
    gym_id: input.gym_id,
    offering_id: offering.offering_id,
    price_id: price.price_id,
    payment_type_id: paymentType?.payment_type_id,
    payment_method: method,
    start_date: startDate,
    billing_date: billingDate,
    amount: price.amount,
    billing_frequency: price.billing_frequency,
    joining_fee: price.joining_fee ?? 0,
    term_amount: price.term_amount ?? undefined,
    term_unit: price.term_unit ?? undefined,
    pause_days_credit: settings.pause_day_credit_days,
    pause_days_remaining: settings.pause_day_credit_days,
    pauses: [],
    cancelled_during_cooling_off_period: false,
    initial_state: startDate > today ? "upcoming" : "active",
    upcoming_state: startDate > today ? "upcoming" : undefined,
    is_staging: false,
    is_term_membership: term !== null,
    on_term_membership_price: term !== null,
    term_ends_at: term ? startOfAucklandDay(term.ends).toISOString() : undefined,
    latest_term_membership: term ? startOfAucklandDay(startDate).toISOString() : undefined,
    cooling_period_ends_at: term
      ? startOfAucklandDay(addDays(startDate, settings.cooling_off_days)).toISOString()
      : undefined,
    // Pay in full covers the price's term (docs/billing.md "Pay in full").
    pif_ends_at: isPif ? startOfAucklandDay(pifEnd(startDate, price)).toISOString() : undefined,
    // A visit pass's visits (docs/offers.md "Visit passes"), valid for the pay-in-full span.
    ...(isPif && price.visits ? { pass_visits: price.visits, pass_visits_used: 0 } : {}),
    private_price_link_id: input.private_price_link_id,
    payments_sum: 0,
    balance_owing: 0,
    periods_owing: 0,
    retries_done: 0,
    hard_declined: false,
    waiting_for_consent: false,
    member_name: user.name,
    member_email: user.email,
    gym_name: gym.name,
    offering_name: offering.name,
    price_label: priceLabel(price),
    ...promo?.snapshot,
    ...trial,
    version: 1,
  } as unknown as SubscriptionRecord;

  const charge = chargeAfterOf(subscription, null);
  if (!charge) throw new ConflictError("This membership has nothing to charge.", "nothing_to_charge");
  // The gym and settings were read just now: the surcharge is the gym's rate at this moment.
  const payment = newPayment("scheduled", {
    sub: subscription,
    type: method,
    payment_type_id: paymentType?.payment_type_id,
    gym,
    settings,
    charge,
    taken: input.pif_payment_method
      ? { payment_method: input.pif_payment_method, processed_by: input.processed_by, at: now.toISOString() }
      : undefined,
  });
  const paymentId = payment.payment_id;
  const pifStatus = payment.status === "upcoming" ? null : payment.status;
  subscription.first_payment_id = paymentId;
  subscription.latest_payment_id = paymentId;
  subscription.upcoming_payment_id = pifStatus ? undefined : paymentId;
  subscription.last_charge_index = charge.index;
  subscription.last_period_end = charge.period_end;
  subscription.current_period_start = payment.period_start_at;
  subscription.current_period_end = payment.period_end_at;
  if (pifStatus === "sent") subscription.payments_sum = charge.amount;
  // Paid in full at the desk (eftpos, cash): its receipt, through the outbox with the subscription
  // (a transfer's comes when it is marked received).
  const paidEvents =
    pifStatus === "sent"
      ? [outboxEvent("paid_at_desk", { organisation_id: organisationId, payment_id: paymentId })]
      : [];
  // The members back-office's reaction (latest subscription, door access, activity), with it.
  const subscribedEvent = outboxEvent("subscribed", {
    organisation_id: organisationId,
    user_id: input.user_id,
    subscription_id: subscriptionId,
    start_date: startDate,
    price_label: subscription.price_label,
    offering_name: subscription.offering_name,
    gym_name: subscription.gym_name,
    ...(input.processed_by ? { actor_id: input.processed_by } : {}),
    at: new Date().toISOString(),
  });
  const confirmedEvents = input.confirms_registration
    ? [
        outboxEvent("registration_confirmed", {
          organisation_id: organisationId,
          user_id: input.user_id,
          subscription_id: subscriptionId,
          payment_id: paymentId,
        }),
      ]
    : [];
  // What is owed from the start is the ledger's (payment/debt.ts): a pay-in-full bank transfer is
  // owed until staff mark it received (payment/received.ts); anything else owes nothing yet.
  const owed = ledgerDebt([payment]);
  subscription.balance_owing = owed.balance_owing;
  subscription.periods_owing = owed.periods_owing;

  const firstAtGym = !existing.some(
    (s) => s.offering_id === offering.offering_id && s.gym_id === input.gym_id && isLive(s, now),
  );
  // A member joining (and a paid-in-full payment taken now) counted with the subscription's create.
  const counted = [
    rollupChange(subscription, startDate, joinDelta(subscription)),
    // Owed from today (the dashboard's owing figures).
    ...(owed.balance_owing > 0
      ? [rollupChange(subscription, today, { owing: owed.balance_owing, owing_count: 1 })]
      : []),
    ...(pifStatus === "sent"
      ? [
          paymentRollup(payment, subscription, today, {
            collected: payment.amount,
            collected_count: 1,
            expected: payment.amount,
            expected_count: 1,
          }),
        ]
      : []),
    // The first payment, when it is still to be charged: the expected-payments page's days ahead.
    ...scheduledChanges(null, payment),
  ];
  await notePaymentMonths([payment]);
  await racePoint("subscribe:read", price.price_id);
  let claimed = claim;
  // Sent from its parameters, so the subscription answered is the item written (no read back).
  let sent: TransactionParams | undefined;
  for (let attempt = 0; ; attempt++) {
    const { canceled } = await writeCounted(counted, (items) => {
      sent = db()
        .transaction.write(
          ({
            subscription: subs,
            payment: payments,
            price: prices,
            offeringMembers,
            rollup,
            memberMonth,
            churnRisk,
            membershipClaim,
            promoCode,
            promoCodeUse,
            outboxEvent: outbox,
            trialUse,
          }) => [
            subs.create(subscription).commit(),
            ...claimItems({ membershipClaim, subscription: subs }, claimed, subscription),
            payments.create(payment).commit(),
            prices
              .patch({ organisation_id: organisationId, price_id: price.price_id })
              .add({ subscriptions_count: 1 })
              // The price still has the amount and terms read, and is not archived: its first
              // subscription and an edit of its amount (allowed only while nobody subscribed, and
              // conditional on `subscriptions_count = 0`) cannot both commit (issue 34).
              .where((a, op) =>
                [
                  op.eq(a.amount, price.amount),
                  op.eq(a.billing_frequency, price.billing_frequency),
                  price.joining_fee == null
                    ? op.notExists(a.joining_fee)
                    : op.eq(a.joining_fee, price.joining_fee),
                  price.term_amount == null
                    ? op.notExists(a.term_amount)
                    : op.eq(a.term_amount, price.term_amount),
                  price.term_unit == null ? op.notExists(a.term_unit) : op.eq(a.term_unit, price.term_unit),
                  price.trial_days == null
                    ? op.notExists(a.trial_days)
                    : op.eq(a.trial_days, price.trial_days),
                  op.notExists(a.archived_at),
                ].join(" AND "),
              )
              .commit(),
            ...(firstAtGym
              ? [
                  offeringMembers
                    .update({
                      organisation_id: organisationId,
                      offering_id: offering.offering_id,
                      gym_id: input.gym_id,
                    })
                    .add({ members: 1 })
                    .commit(),
                ]
              : []),
            ...(promo ? promoJoinItems({ promoCode, promoCodeUse }, promo, subscription) : []),
            outboxItem({ outboxEvent: outbox }, subscribedEvent),
            ...confirmedEvents.map((event) => outboxItem({ outboxEvent: outbox }, event)),
            ...paidEvents.map((event) => outboxItem({ outboxEvent: outbox }, event)),
            ...(trial ? trialJoinItems({ trialUse }, subscription) : []),
            ...items({ rollup, memberMonth, churnRisk }),
          ],
        )
        .params() as TransactionParams;
      return sendTransaction(sent);
    });
    if (!canceled) break;
    // The price's amount or terms changed since it was read (an edit while nobody was subscribed
    // yet): the member agreed to what they were shown, which is no longer the price (issue 34).
    if (await priceChanged(organisationId, price)) throw priceChangedError();
    // Another request took the claim first (a double tap, a phone's retry, staff at the same
    // moment), or a transaction on a shared item (the price's counter) was in flight: read again.
    claimed = await readMembershipClaim(organisationId, input.user_id, await businessNow());
    if (claimed.live) throw await alreadyMember(claimed.live);
    // The code's last use was taken by another join, or this member used it meanwhile: 422 with why.
    if (promo) {
      promo = await promoForJoin(promoInput);
      Object.assign(subscription, promo.snapshot);
    }
    // The trial was taken meanwhile (the member's other join): never joined without the trial shown.
    if (trial && !(await trialForJoin(organisationId, input.user_id, price, startDate)))
      throw new ConflictError("You have already had this membership's trial.", "trial_used");
    if (attempt >= 3) throw new ConflictError("The membership could not be created. Please try again.");
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 50 * (attempt + 1)));
  }
  // The subscription is the transaction's first item.
  const item = sent ? putItem(sent, 0) : null;
  const saved = item
    ? (db().entities.subscription.parse({ Item: item }).data as SubscriptionRecord | null)
    : null;
  if (!saved || saved.subscription_id !== subscriptionId) throw new NotFoundError("subscription");
  const made: CreatedSubscription = {
    subscription: saved,
    first_payment: payment,
    read: { organisation, gym, user, paymentType },
  };
  // The reactions inline, and the caller's own work on what was made, side by side: neither reads
  // what the other writes.
  await Promise.all([
    deliverCommitted(
      {
        ...subscribedEvent,
        // What making it read, for the handler inline: as the member's subscriptions read before,
        // with this one (newest) first (the index may not list it yet).
        held: {
          organisation,
          gym,
          user,
          subscriptions: [saved, ...existing.filter((s) => s.subscription_id !== saved.subscription_id)],
        } satisfies SubscribedRead,
      },
      // Paid in full at the desk (eftpos, cash): the receipt (a transfer's comes when received).
      ...paidEvents,
      // Confirmed by the member: their registration is done, the welcome emailed (from what was read).
      ...confirmedEvents.map((event) => ({
        ...event,
        held: {
          organisation_id: organisationId,
          subscription: saved,
          first_payment: payment,
          user,
          gym,
        } satisfies Subscribed,
      })),
    ),
    input.beside_subscribers?.(made),
  ]);
  return made;
}

type PriceTerms = Pick<
  PriceRecord,
  "price_id" | "amount" | "billing_frequency" | "joining_fee" | "term_amount" | "term_unit" | "trial_days"
>;

/** The price's amount or terms are no longer those read (or it was archived meanwhile). */
async function priceChanged(organisationId: string, read: PriceTerms) {
  const now = await findPrice(organisationId, read.price_id);
  if (!now || now.archived_at) return true;
  return (
    ["amount", "billing_frequency", "joining_fee", "term_amount", "term_unit", "trial_days"] as const
  ).some((name) => (now[name] ?? null) !== (read[name] ?? null));
}

const priceChangedError = () =>
  new ConflictError(
    "The price of this membership changed while you were confirming. Look at the new price and confirm again.",
    "price_changed",
  );

/** 409 `subscription_exists` with the membership the member has (what the confirm page moves on to). */
async function alreadyMember(live: SubscriptionRecord) {
  return new ConflictError(
    "This member already has a membership.",
    "subscription_exists",
    await subscriptionWithPayments(live),
  );
}

export const subscribeInput = z.object({
  price_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(64),
  gym_id: z.string().trim().max(64).optional(),
  start_date: civilDateSchema.optional(),
  billing_date: civilDateSchema.optional(),
  payment_type_id: z.string().trim().max(64).nullish(),
  promo_code: z.string().trim().max(30).optional(),
});

/**
 * `POST /api/subscriptions`: the signed-in member confirms a membership at a gym of their
 * organisation. Answers the subscription with its first payment.
 */
export async function subscribe(actor: Actor, input: unknown) {
  const created = await subscribeAsMember(actor, input);
  const now = await businessNow();
  return presentSubscription(created.subscription, {
    now,
    upcomingPayment: created.first_payment.status === "upcoming" ? created.first_payment : null,
    firstPayment: created.first_payment,
    latestPayment: created.first_payment,
  });
}

/** `subscribe`'s work, answering what it made and read (the join site's confirm answers from it). */
export async function subscribeAsMember(
  actor: Actor,
  input: unknown,
  options: Pick<
    CreateSubscriptionInput,
    "linked_price_id" | "member_reads" | "beside_subscribers" | "confirms_registration"
  > = {},
): Promise<CreatedSubscription> {
  const values = parse(subscribeInput, input);
  if (!actor.organisationId) throw new ConflictError("Join a gym first.", "no_organisation");
  const gymId = values.gym_id ?? actor.gymId;
  if (!gymId) throw ValidationError.field("gym_id", "Value is required");
  inGym(actor, gymId);
  return createSubscription({
    organisation_id: actor.organisationId,
    user_id: actor.userId,
    gym_id: gymId,
    price_id: values.price_id,
    start_date: values.start_date,
    billing_date: values.billing_date,
    payment_type_id: values.payment_type_id ?? null,
    promo_code: values.promo_code || undefined,
    gym: actor.gymRecords?.find((gym) => gym.gym_id === gymId),
    ...options,
  });
}

/** The member's live subscription (newest), or null. */
export async function activeSubscriptionOf(organisationId: string, userId: string) {
  // Side by side: the clock (a request of its own in the local runtime) does not hold the query back.
  const [now, subs] = await Promise.all([businessNow(), memberSubscriptions(organisationId, userId)]);
  return subs.find((s) => isLive(s, now)) ?? null;
}

/**
 * The latest payment that happened: the one settlement last recorded (`latest_payment_id`), else
 * the newest by when it was settled or claimed. Not list order: payments due the same day share
 * their id's time part, so a retry and the failure it paid off sort by the random part.
 */
export function latestPaymentOf(sub: SubscriptionRecord, payments: PaymentRecord[]): PaymentRecord | null {
  const done = payments.filter((p) => p.status !== "upcoming");
  const recorded = sub.latest_payment_id
    ? done.find((p) => p.payment_id === sub.latest_payment_id)
    : undefined;
  if (recorded) return recorded;
  const when = (p: PaymentRecord) => p.settled_at ?? p.charged_at ?? p.claimed_at ?? p.due_on;
  return done.sort((a, b) => (when(a) < when(b) ? 1 : when(a) > when(b) ? -1 : 0))[0] ?? null;
}

/**
 * A subscription with its upcoming, first and latest payments (one Query of the member's payments).
 * `known`: records the caller read in this request, for the quote (its rates, gym and method).
 */
export async function subscriptionWithPayments(
  sub: SubscriptionRecord,
  known: {
    context?: BillingContext;
    paymentTypes?: readonly PaymentTypeRecord[];
  } = {},
) {
  const [now, items] = await Promise.all([businessNow(), memberPayments(sub.organisation_id, sub.user_id)]);
  const mine = items.filter((p) => p.subscription_id === sub.subscription_id);
  const byId = new Map(mine.map((p) => [p.payment_id, p]));
  const upcoming = nextUpcoming(mine);
  return presentSubscription(sub, {
    now,
    upcomingPayment: upcoming,
    firstPayment: (sub.first_payment_id && byId.get(sub.first_payment_id)) || null,
    latestPayment: latestPaymentOf(sub, mine),
    payments: mine,
    nextCharge: await quoteNextEvent(
      sub,
      mine,
      known.context,
      known.paymentTypes ? methodAmong(sub, known.paymentTypes) : undefined,
    ),
  });
}

/** The member's newest payments (one Query), as the membership pages list them. */
async function memberPayments(organisationId: string, userId: string) {
  return (await listMemberPayments(organisationId, userId, { limit: 50 })).items;
}

/**
 * The member's live subscription with its payments, else the latest that ended with its payments
 * (its last day, what is still owed and its receipts: docs/registration.md "After a membership
 * ended"): the member's subscriptions, then (when they have one) their payments.
 */
export async function myMemberships(
  actor: Actor,
  /** The request's records (its quote's rates and gym); by default the gyms read with the session. */
  context: BillingContext = knownContext({ gyms: actor.gymRecords }),
) {
  if (!actor.organisationId) return { live: null, ended: null };
  // Side by side: the clock (a request of its own in the local runtime) does not hold the query back.
  const [now, subs] = await Promise.all([
    businessNow(),
    memberSubscriptions(actor.organisationId, actor.userId),
  ]);
  // The live one, else the latest (ended); a member who never had one reads no payments.
  const shown = subs.find((s) => isLive(s, now)) ?? subs[0];
  if (!shown) return { live: null, ended: null };
  const presented = await subscriptionWithPayments(shown, { context });
  return isLive(shown, now) ? { live: presented, ended: null } : { live: null, ended: presented };
}

/** `GET /api/me/active-subscription`. */
export async function myActiveSubscription(
  actor: Actor,
  /** The request's records (its quote's rates and gym); by default the gyms read with the session. */
  context: BillingContext = knownContext({ gyms: actor.gymRecords }),
) {
  if (!actor.organisationId) return null;
  const sub = await activeSubscriptionOf(actor.organisationId, actor.userId);
  return sub ? subscriptionWithPayments(sub, { context }) : null;
}

/** Staff: one subscription of their organisation (404 outside it or outside their gyms). */
export async function readSubscription(actor: Actor, subscriptionId: string) {
  authorize(policy.useStaffArea(actor));
  if (!actor.organisationId) throw new NotFoundError("subscription");
  const sub = await findSubscription(actor.organisationId, subscriptionId);
  if (!sub || !actor.gymIds.includes(sub.gym_id)) throw new NotFoundError("subscription");
  // The gym was read with the session.
  return subscriptionWithPayments(sub, { context: knownContext({ gyms: actor.gymRecords }) });
}

export { presentPayment };
