/**
 * The schedule's invariant (issue 39, docs/billing.md "The schedule never stops"): a live
 * subscription whose schedule has a charge after its last planned one holds an `upcoming` payment.
 * A claim always writes the next payment with it (payment/jobs/billing-run.ts), so a subscription
 * without one has stopped billing and nothing else would notice. The reconciliation job (twice a
 * day) sweeps EVERY live subscription (`sweepSchedules`): the schedule index (subscription gsi4
 * `schedule#<shard>`, sparse: from creation until the cancellation is in effect) read page by page,
 * one BatchGet of the upcoming payments each page names, and the full check (a Query of the
 * member's payments) only for a subscription whose named payment is missing or no longer upcoming.
 * A subscription whose cancellation is in effect leaves the index here (the sweep's only write).
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { WORK_SHARDS } from "../db/shards";
import { chargeAfterOf } from "../subscription/schedule";
import { isLive, SCHEDULE_FIELDS, type SubscriptionRecord } from "../subscription/store";
import type { PaymentRecord } from "./store";

/** Has this live subscription stopped billing (its schedule goes on, no payment is upcoming)? */
export function scheduleStopped(
  sub: SubscriptionRecord,
  payments: readonly PaymentRecord[],
  now: Date,
): boolean {
  if (!isLive(sub, now)) return false;
  if (payments.some((p) => p.subscription_id === sub.subscription_id && p.status === "upcoming"))
    return false;
  const previous =
    sub.last_charge_index !== undefined && sub.last_period_end
      ? { index: sub.last_charge_index, period_end: sub.last_period_end }
      : null;
  return chargeAfterOf(sub, previous) !== null;
}

/** The subscriptions among `keys` that stopped billing (one read and one Query of payments each). */
export async function unscheduledSubscriptions(
  keys: readonly { organisation_id: string; subscription_id: string }[],
  now: Date,
): Promise<SubscriptionRecord[]> {
  const each = await Promise.all(
    keys.map(async (key) => {
      const { data: sub } = await db().entities.subscription.get(key).go({ consistent: true });
      if (!sub) return [];
      const { data } = await db()
        .entities.payment.query.byMember({ organisation_id: sub.organisation_id, user_id: sub.user_id })
        .where((a, op) => op.eq(a.subscription_id, sub.subscription_id))
        .go({ pages: "all" });
      return scheduleStopped(sub, data as PaymentRecord[], now) ? [sub] : [];
    }),
  );
  return each.flat();
}

/** Subscriptions one page of a shard of the schedule index reads. */
const SWEEP_PAGE = 200;

export interface ScheduleSweep {
  /** Subscriptions read from the schedule index. */
  swept: number;
  /** Of them, checked in full (their named upcoming payment missing or no longer upcoming). */
  checked_in_full: number;
  /** Cancellations in effect that left the index. */
  ended: number;
  /** Live subscriptions whose billing has stopped. */
  unscheduled: SubscriptionRecord[];
}

/** Every live subscription checked (the schedule index, shard by shard, page by page). */
export async function sweepSchedules(now: Date): Promise<ScheduleSweep> {
  const sweep: ScheduleSweep = { swept: 0, checked_in_full: 0, ended: 0, unscheduled: [] };
  for (let shard = 0; shard < WORK_SHARDS; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const answer = await dynamo().send(
        new QueryCommand({
          TableName: config.tableName,
          IndexName: "gsi4",
          KeyConditionExpression: "#k = :k",
          ExpressionAttributeNames: { "#k": "gsi4pk" },
          ExpressionAttributeValues: { ":k": `schedule#${shard}` },
          Limit: SWEEP_PAGE,
          ExclusiveStartKey: start,
        }),
      );
      start = answer.LastEvaluatedKey;
      const subs = db().entities.subscription.parse({ Items: answer.Items ?? [] })
        .data as SubscriptionRecord[];
      sweep.swept += subs.length;
      const live: SubscriptionRecord[] = [];
      for (const sub of subs) {
        if (isLive(sub, now)) live.push(sub);
        else if (await leaveIndex(sub)) sweep.ended += 1;
      }
      const suspects = await withoutUpcoming(live);
      sweep.checked_in_full += suspects.length;
      sweep.unscheduled.push(...(await unscheduledSubscriptions(suspects, now)));
    } while (start);
  }
  return sweep;
}

/** The live subscriptions whose named upcoming payment is missing or no longer upcoming (one BatchGet). */
async function withoutUpcoming(live: SubscriptionRecord[]): Promise<SubscriptionRecord[]> {
  const named = live.filter((s) => s.upcoming_payment_id);
  const upcoming = new Set<string>();
  if (named.length) {
    const { data } = await db()
      .entities.payment.get(
        named.map((s) => ({
          organisation_id: s.organisation_id,
          payment_id: s.upcoming_payment_id as string,
        })),
      )
      .go({ attributes: ["payment_id", "status", "subscription_id"], concurrency: 2 });
    for (const p of data) if (p.status === "upcoming") upcoming.add(p.payment_id);
  }
  return live.filter((s) => !s.upcoming_payment_id || !upcoming.has(s.upcoming_payment_id));
}

/** A subscription whose cancellation is in effect leaves the schedule index (as read: not undone since). */
async function leaveIndex(sub: SubscriptionRecord): Promise<boolean> {
  try {
    await db()
      .entities.subscription.patch({
        organisation_id: sub.organisation_id,
        subscription_id: sub.subscription_id,
      })
      .remove([...SCHEDULE_FIELDS])
      .where((a, op) => op.eq(a.cancellation_effective_at, sub.cancellation_effective_at as string))
      .go();
    return true;
  } catch {
    // Changed meanwhile: the next sweep reads it again.
    return false;
  }
}
