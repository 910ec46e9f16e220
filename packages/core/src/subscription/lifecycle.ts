/**
 * What every lifecycle call (pause, cancel, price change, start early, manual payment) shares:
 * finding the subscription within the staff member's reach, and committing a change of the
 * subscription's facts together with the re-planned upcoming payment.
 *
 * Operations never decide an amount or a date themselves: they change the facts the schedule
 * function reads (pauses, cancellation date, price change), then the upcoming payment (a projection
 * of the schedule ahead of its due date, which the billing run would otherwise charge as it was) is
 * re-derived from the schedule for the same place in the sequence. Activity: each change appends
 * to `lifecycle_events` on the subscription (the backoffice activity log can read or replace it).
 */

import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds, staffGymIds, staffOrganisation } from "../auth/scope";
import { aucklandDate, type CivilDate, isCivilDate, startOfAucklandDay } from "../billing/calendar";
import { chargeCovering } from "../billing/schedule";
import { businessNow } from "../clock";
import { idempotencyMessages } from "../contract/lifecycle";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { deliverCommitted, type OutboxEvent, outboxEvent, outboxItem } from "../outbox/outbox";
import { gymOf, settingsOf } from "../payment/context";
import { notePaymentMonths } from "../payment/months";
import { newPayment } from "../payment/new-payment";
import { findPayment, type PaymentRecord } from "../payment/store";
import { racePoint } from "../race-points";
import { factsRollup, scheduledChanges } from "../rollup/money";
import { writeCounted } from "../rollup/writes";
import { chargeAfterOf, scheduleOf } from "./schedule";
import { subscriptionWithPayments } from "./service";
import { findSubscription, type SubscriptionRecord } from "./store";

/** "YYYY-MM-DD" as is; an instant as its Auckland date. */
export function civilOf(value: string | null | undefined): CivilDate | null {
  if (!value) return null;
  return isCivilDate(value) ? value : aucklandDate(new Date(value));
}

export const instantOf = (date: CivilDate) => startOfAucklandDay(date).toISOString();

/**
 * The subscription, when it is at one of the staff member's gyms (else 404, also for another
 * organisation's id). Changing it needs an admin of its gym (organisation admin or gym admin):
 * personal trainers read, they do not change memberships (403).
 */
export async function reachableSubscription(
  actor: Actor,
  subscriptionId: string,
  need: "read" | "change",
): Promise<SubscriptionRecord> {
  const organisationId = staffOrganisation(actor);
  const sub = await findSubscription(organisationId, subscriptionId);
  if (!sub || !staffGymIds(actor).includes(sub.gym_id)) throw new NotFoundError("subscription");
  if (need === "change")
    authorize(adminGymIds(actor).includes(sub.gym_id), "Only an admin of this gym can change a membership.");
  return sub;
}

/** How an operation finds the subscription it acts on (staff reach, or the member's own). */
export type SubscriptionFinder = (actor: Actor, subscriptionId: string) => Promise<SubscriptionRecord>;

/**
 * The signed-in member's own subscription (self-service on the join site): in the organisation of
 * their session and theirs only. Anyone else's id, or another organisation's, answers 404.
 */
export async function ownSubscription(actor: Actor, subscriptionId: string): Promise<SubscriptionRecord> {
  const sub = actor.organisationId ? await findSubscription(actor.organisationId, subscriptionId) : null;
  if (!sub || sub.user_id !== actor.userId) throw new NotFoundError("subscription");
  return sub;
}

export const staffChanges: SubscriptionFinder = (actor, id) => reachableSubscription(actor, id, "change");
export const staffReads: SubscriptionFinder = (actor, id) => reachableSubscription(actor, id, "read");

export interface LifecycleEvent {
  action: string;
  detail: string;
  /** The Idempotency-Key of the request that made it, for a change that must happen once (`commitFactsOnce`). */
  key?: string;
}

export interface FactChange {
  set?: Partial<SubscriptionRecord>;
  remove?: (keyof SubscriptionRecord)[];
  /**
   * Counters added to (DynamoDB ADD), not set from what was read: the paid total and the credit,
   * which a settlement (`payments_sum`) or a billing run's claim (`credit_balance`) moves without
   * changing the version, so a SET of the figure read would undo theirs (issue 34).
   */
  add?: Partial<Record<"payments_sum" | "credit_balance" | "pass_visits", number>>;
  /**
   * False for a change that cannot move the schedule (a desk payment). Any other change is also
   * conditional on the billing state read (`last_charge_index`): a billing run's claim advances it
   * without changing the version, and plans the next payment from the facts it read, so a
   * cancellation or pause committed after it would leave that payment planned on the old facts
   * (found by the race suite, issue 34). Such a change answers 409 `subscription_changed`.
   */
  movesSchedule?: boolean;
  event: LifecycleEvent;
}

/** The earliest of some civil dates (ISO dates sort as strings). */
const earliest = (...dates: CivilDate[]): CivilDate => [...dates].sort()[0];

/**
 * With no upcoming payment (a cancellation ended the schedule, and is now undone): the next charge
 * after the last one the billing run claimed, made afresh. Without this an undone cancellation
 * left the membership live with nothing ever charged again (found by the billing simulation,
 * docs/simulation.md).
 *
 * "After" is by index, from the claimed period's stored end or today, whichever is earlier (the
 * rule `replan` applies to an upcoming payment). The stored end is what the schedule said when the
 * period was claimed: a pause inside that period, removed since, still counts in it, while the
 * schedule without the pause starts the next period on its old date, before the stored end. Planning
 * from the stored end skipped that period (never charged; the one after it was planned instead:
 * simulation finding m109, seed 1, 200 × 365).
 */
async function planAfresh(after: SubscriptionRecord, today: CivilDate): Promise<PaymentRecord | null> {
  const { data } = await db()
    .entities.payment.query.byMember({ organisation_id: after.organisation_id, user_id: after.user_id })
    .go({ pages: "all" });
  const mine = (data as PaymentRecord[]).filter((p) => p.subscription_id === after.subscription_id);
  // One is already waiting (the subscription's pointer was behind): nothing to plan.
  if (mine.some((p) => p.status === "upcoming" && p.charge_index !== undefined)) return null;
  const claimed = mine
    .filter(
      (p) =>
        p.charge_index !== undefined && !p.is_retry && p.status !== "upcoming" && p.status !== "cancelled",
    )
    .sort((a, b) => (b.charge_index ?? 0) - (a.charge_index ?? 0))[0];
  const previous = claimed
    ? {
        index: claimed.charge_index ?? 0,
        period_end: earliest(civilOf(claimed.period_end_at) ?? claimed.due_on, today),
      }
    : null;
  const charge = chargeAfterOf(after, previous);
  if (!charge) return null;
  const [settings, gym] = await Promise.all([
    settingsOf(after.organisation_id),
    gymOf(after.organisation_id, after.gym_id),
  ]);
  return newPayment("scheduled", {
    sub: after,
    type: after.payment_method === "bank_account" ? "bank_account" : "stripe_card",
    gym,
    settings,
    charge,
  });
}

/** The upcoming payment re-derived from the changed facts, or null when it stays as it is. */
async function replan(
  before: SubscriptionRecord,
  after: SubscriptionRecord,
  today: CivilDate,
): Promise<{ old: PaymentRecord | null; next: PaymentRecord | null } | null> {
  const old = before.upcoming_payment_id
    ? await findPayment(before.organisation_id, before.upcoming_payment_id)
    : null;
  if (old?.status !== "upcoming") {
    // Nothing upcoming: the schedule had ended (a cancellation, now undone), or its last payment
    // was claimed with nothing after it.
    const next = await planAfresh(after, today);
    return next ? { old: null, next } : null;
  }
  if (old.charge_index === undefined) return null;
  // The next charge is the schedule's charge of the same index, starting on or after today (or
  // the old due date, if that was missed). Not "on or after the old start": a pause removed
  // before it began had moved that start later, and the period it skipped would never be charged
  // (found by the billing simulation, docs/simulation.md). Boundaries before today never move.
  const oldStart = civilOf(old.period_start_at) ?? old.due_on;
  const from = earliest(oldStart, old.due_on, today);
  const previous = old.charge_index === 0 ? null : { index: old.charge_index - 1, period_end: from };
  const charge = chargeAfterOf(after, previous);
  const same =
    charge &&
    charge.index === old.charge_index &&
    charge.due_on === old.due_on &&
    charge.amount === old.amount &&
    instantOf(charge.period_end) === old.period_end_at;
  if (same) return null;
  if (!charge) return { old, next: null };
  // The same payment re-planned: its method and type kept, its surcharge at the gym's rate now.
  const [settings, gym] = await Promise.all([
    settingsOf(after.organisation_id),
    gymOf(after.organisation_id, after.gym_id),
  ]);
  const next = newPayment("scheduled", {
    sub: after,
    type: old.type,
    payment_type_id: old.payment_type_id,
    gym,
    settings,
    charge,
  });
  return { old, next };
}

/**
 * The end of the period in progress after a change of facts, when the schedule now ends it on
 * another day: a pause starting inside the charged period (or on its last day's boundary) extends
 * it by the paused days, and removing that pause gives them back. Without this the member page
 * showed the period as charged (a week) while the next payment had moved out by the pause (caught
 * by the lifecycle e2e). Null when the stored end stands.
 */
function currentPeriodEnd(after: SubscriptionRecord): string | null {
  const start = civilOf(after.current_period_start);
  if (!start || !after.current_period_end || after.billing_frequency === "one_off") return null;
  const covering = chargeCovering(scheduleOf(after), start);
  if (!covering || covering.period_start !== start) return null;
  const end = instantOf(covering.period_end);
  return end === after.current_period_end ? null : end;
}

/**
 * The scheduled-payment counters' change of a re-plan, as the transaction below writes it: the
 * next payment created, the old one updated in place (same id: its amount and surcharge), or the
 * old one deleted and the next created. Each write is conditional on the old payment as read.
 */
function scheduledOfPlan(plan: { old: PaymentRecord | null; next: PaymentRecord | null } | null) {
  if (!plan) return [];
  if (plan.old && plan.next?.payment_id === plan.old.payment_id)
    return scheduledChanges(plan.old, {
      ...plan.old,
      amount: plan.next.amount,
      surcharge: plan.next.surcharge,
    });
  return [...scheduledChanges(plan.old, null), ...scheduledChanges(null, plan.next)];
}

/**
 * Writes a change of facts (conditional on the version read: a concurrent billing run or another
 * staff member gets 409) with the upcoming payment re-planned, in one transaction, and answers the
 * subscription as staff see it. `extra` adds payments (a break fee, a manual payment); `events`
 * outbox events written in the same transaction and delivered after it (outbox/outbox.ts).
 */
export async function commitFacts(
  actor: Actor,
  sub: SubscriptionRecord,
  requested: FactChange,
  extra: PaymentRecord[] = [],
  events: OutboxEvent[] = [],
) {
  const now = await businessNow();
  const removed = Object.fromEntries((requested.remove ?? []).map((k) => [k, undefined]));
  const periodEnd = currentPeriodEnd({ ...sub, ...requested.set, ...removed } as SubscriptionRecord);
  const change = periodEnd
    ? { ...requested, set: { ...requested.set, current_period_end: periodEnd } }
    : requested;
  const added: Partial<SubscriptionRecord> = {};
  for (const [name, n] of Object.entries(change.add ?? {}) as [
    keyof NonNullable<FactChange["add"]>,
    number,
  ][])
    added[name] = (sub[name] ?? 0) + n;
  const after = { ...sub, ...change.set, ...added, ...removed } as SubscriptionRecord;
  const plan = await replan(sub, after, aucklandDate(now));
  const event = { at: now.toISOString(), by: actor.userId, ...change.event };
  // The members back-office's reaction (door access, the activity entry), with the change.
  const changed = outboxEvent("lifecycle_changed", {
    organisation_id: sub.organisation_id,
    user_id: sub.user_id,
    subscription_id: sub.subscription_id,
    action: event.action,
    detail: event.detail,
    by: event.by,
    at: event.at,
  });
  const outbox = [changed, ...events];
  const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
  const upcomingId = plan ? (plan.next?.payment_id ?? null) : undefined;
  const counted = [
    ...factsRollup(sub, after, extra, aucklandDate(now)),
    ...scheduledOfPlan(plan),
    ...extra.flatMap((p) => scheduledChanges(null, p)),
  ];
  await notePaymentMonths([...(plan?.next ? [plan.next] : []), ...extra]);
  await racePoint("facts:read", sub.subscription_id);
  const { canceled } = await writeCounted(counted, (items) =>
    db()
      .transaction.write(({ subscription, payment, rollup, memberMonth, churnRisk, outboxEvent }) => {
        let patch = subscription.patch(key).set({
          ...(change.set ?? {}),
          ...(upcomingId ? { upcoming_payment_id: upcomingId } : {}),
          lifecycle_events: [...(sub.lifecycle_events ?? []), event],
        });
        const remove = [
          ...(change.remove ?? []),
          ...(upcomingId === null ? ["upcoming_payment_id" as const] : []),
        ];
        if (remove.length) patch = patch.remove(remove as never);
        return [
          patch
            .add({ ...(change.add ?? {}), version: 1 })
            .where((a, op) => {
              const version = op.eq(a.version, sub.version);
              if (change.movesSchedule === false) return version;
              const billed =
                sub.last_charge_index === undefined
                  ? op.notExists(a.last_charge_index)
                  : op.eq(a.last_charge_index, sub.last_charge_index);
              return `${version} AND ${billed}`;
            })
            .commit(),
          ...(plan && !plan.old
            ? [payment.create(plan.next as PaymentRecord).commit()]
            : plan?.old && plan.next?.payment_id === plan.old.payment_id
              ? [
                  // Same charge and due date (its id), another period end or amount: updated in place.
                  payment
                    .patch({ organisation_id: sub.organisation_id, payment_id: plan.old.payment_id })
                    .set({
                      amount: plan.next.amount,
                      surcharge: plan.next.surcharge,
                      joining_fee: plan.next.joining_fee,
                      period_start_at: plan.next.period_start_at,
                      period_end_at: plan.next.period_end_at,
                      is_pro_rata: plan.next.is_pro_rata,
                      // The price in force for the period (a price change re-plans it): its row
                      // and invoice name the price it is charged at (issue 34 tour).
                      ...(plan.next.price_label ? { price_label: plan.next.price_label } : {}),
                    })
                    .add({ version: 1 })
                    .where(
                      (a, op) => `${op.eq(a.status, "upcoming")} AND ${op.eq(a.version, plan.old?.version)}`,
                    )
                    .commit(),
                ]
              : plan?.old
                ? [
                    payment
                      .delete({ organisation_id: sub.organisation_id, payment_id: plan.old.payment_id })
                      .where(
                        (a, op) =>
                          `${op.eq(a.status, "upcoming")} AND ${op.eq(a.version, plan.old?.version)}`,
                      )
                      .commit(),
                    ...(plan.next ? [payment.create(plan.next).commit()] : []),
                  ]
                : []),
          ...extra.map((p) => payment.create(p).commit()),
          ...outbox.map((e) => outboxItem({ outboxEvent }, e)),
          ...items({ rollup, memberMonth, churnRisk }),
        ];
      })
      .go(),
  );
  if (canceled)
    throw new ConflictError(
      "This membership changed while you were looking at it. Reload and try again.",
      "subscription_changed",
    );
  const saved = await findSubscription(sub.organisation_id, sub.subscription_id);
  if (!saved) throw new NotFoundError("subscription");
  await deliverCommitted(...outbox);
  return subscriptionWithPayments(saved);
}

/**
 * `commitFacts` for a staff request that must take effect once however often it is sent (a
 * double-click, a retry after a lost answer): the event carries the request's Idempotency-Key.
 * A key already on the subscription answers the membership as it is, changing nothing; the same
 * key with another change is a 422 on `idempotency-key`. Two at once: one commits, the other
 * finds the version moved, reads again and finds its key (docs/offers.md "Staff add visits").
 */
export async function commitFactsOnce(
  actor: Actor,
  sub: SubscriptionRecord,
  change: FactChange,
  key: string,
) {
  const done = (record: SubscriptionRecord) => {
    const seen = (record.lifecycle_events ?? []).find((e) => e.key === key);
    if (!seen) return false;
    if (seen.action !== change.event.action || seen.detail !== change.event.detail)
      throw ValidationError.field("idempotency-key", idempotencyMessages.reused);
    return true;
  };
  if (done(sub)) return subscriptionWithPayments(sub);
  try {
    return await commitFacts(actor, sub, { ...change, event: { ...change.event, key } });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const again = await findSubscription(sub.organisation_id, sub.subscription_id);
    if (again && done(again)) return subscriptionWithPayments(again);
    throw error;
  }
}
