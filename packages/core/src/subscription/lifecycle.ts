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
import { aucklandDate, type CivilDate, isCivilDate, startOfAucklandDay } from "../billing/calendar";
import { surcharge as surchargeOf } from "../billing/money";
import { businessNow } from "../clock";
import { db } from "../db/service";
import { ConflictError, NotFoundError } from "../errors";
import { memberLifecycleChanged } from "../member/hooks";
import { cardSurchargeOf } from "../payment/context";
import { scheduledPaymentId } from "../payment/ids";
import { adminGymIds, staffGymIds, staffOrganisation } from "../payment/list";
import { findPayment, type PaymentRecord, workKeys } from "../payment/store";
import { chargeAfterOf } from "./schedule";
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

export interface LifecycleEvent {
  action: string;
  detail: string;
}

export interface FactChange {
  set?: Partial<SubscriptionRecord>;
  remove?: (keyof SubscriptionRecord)[];
  event: LifecycleEvent;
}

/** The upcoming payment re-derived from the changed facts, or null when it stays as it is. */
async function replan(
  before: SubscriptionRecord,
  after: SubscriptionRecord,
): Promise<{ old: PaymentRecord; next: PaymentRecord | null } | null> {
  if (!before.upcoming_payment_id) return null;
  const old = await findPayment(before.organisation_id, before.upcoming_payment_id);
  if (!old || old.status !== "upcoming" || old.charge_index === undefined) return null;
  const previous =
    old.charge_index === 0
      ? null
      : { index: old.charge_index - 1, period_end: civilOf(old.period_start_at) ?? old.due_on };
  const charge = chargeAfterOf(after, previous);
  const same =
    charge &&
    charge.index === old.charge_index &&
    charge.due_on === old.due_on &&
    charge.amount === old.amount &&
    instantOf(charge.period_end) === old.period_end_at;
  if (same) return null;
  if (!charge) return { old, next: null };
  const paymentId = scheduledPaymentId(after.subscription_id, charge.index, charge.due_on);
  const surcharge =
    old.type === "stripe_card"
      ? surchargeOf(charge.amount, await cardSurchargeOf(after.organisation_id, after.gym_id))
      : 0;
  const {
    work_key: _k,
    work_sort: _s,
    ...rest
  } = old as PaymentRecord & { work_key?: string; work_sort?: string };
  const next = {
    ...rest,
    payment_id: paymentId,
    amount: charge.amount,
    surcharge,
    joining_fee: charge.joining_fee,
    due_on: charge.due_on,
    period_start_at: instantOf(charge.period_start),
    period_end_at: instantOf(charge.period_end),
    charge_index: charge.index,
    is_pro_rata: charge.is_pro_rata,
    version: 1,
    created_at: undefined,
    updated_at: undefined,
    ...workKeys.due(paymentId, charge.due_on),
  } as unknown as PaymentRecord;
  return { old, next };
}

/**
 * Writes a change of facts (conditional on the version read: a concurrent billing run or another
 * staff member gets 409) with the upcoming payment re-planned, in one transaction, and answers the
 * subscription as staff see it. `extra` adds payments (a break fee, a manual payment).
 */
export async function commitFacts(
  actor: Actor,
  sub: SubscriptionRecord,
  change: FactChange,
  extra: PaymentRecord[] = [],
) {
  const now = await businessNow();
  const removed = Object.fromEntries((change.remove ?? []).map((k) => [k, undefined]));
  const after = { ...sub, ...change.set, ...removed } as SubscriptionRecord;
  const plan = await replan(sub, after);
  const event = { at: now.toISOString(), by: actor.userId, ...change.event };
  const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
  const upcomingId = plan ? (plan.next?.payment_id ?? null) : undefined;
  const { canceled } = await db()
    .transaction.write(({ subscription, payment }) => {
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
          .add({ version: 1 })
          .where((a, op) => op.eq(a.version, sub.version))
          .commit(),
        ...(plan && plan.next?.payment_id === plan.old.payment_id
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
                })
                .add({ version: 1 })
                .where((a, op) => `${op.eq(a.status, "upcoming")} AND ${op.eq(a.version, plan.old.version)}`)
                .commit(),
            ]
          : plan
            ? [
                payment
                  .delete({ organisation_id: sub.organisation_id, payment_id: plan.old.payment_id })
                  .where(
                    (a, op) => `${op.eq(a.status, "upcoming")} AND ${op.eq(a.version, plan.old.version)}`,
                  )
                  .commit(),
                ...(plan.next ? [payment.create(plan.next).commit()] : []),
              ]
            : []),
        ...extra.map((p) => payment.create(p).commit()),
      ];
    })
    .go();
  if (canceled)
    throw new ConflictError(
      "This membership changed while you were looking at it. Reload and try again.",
      "subscription_changed",
    );
  const saved = await findSubscription(sub.organisation_id, sub.subscription_id);
  if (!saved) throw new NotFoundError("subscription");
  await memberLifecycleChanged(sub, event);
  return subscriptionWithPayments(saved);
}
