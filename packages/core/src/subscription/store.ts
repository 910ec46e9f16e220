/**
 * Reads of subscriptions and their dunning items. No authorisation here: services decide. In the
 * ledger's layer (layers.test.ts): settlement and the billing jobs read the subscription they bill.
 */
import type { EntityItem } from "electrodb";
import { db } from "../db/service";
import { shardOf } from "../db/shards";
import type { subscriptionEntity } from "./entity";

export type SubscriptionRecord = EntityItem<typeof subscriptionEntity>;

/** The schedule index's keys (sparse gsi4): every subscription from its creation until it ends. */
export function scheduleKeys(sub: { subscription_id: string }) {
  return { schedule_key: `schedule#${shardOf(sub.subscription_id)}`, schedule_sort: sub.subscription_id };
}

export const SCHEDULE_FIELDS = ["schedule_key", "schedule_sort"] as const;

export async function findSubscription(
  organisationId: string,
  subscriptionId: string,
): Promise<SubscriptionRecord | null> {
  const { data } = await db()
    .entities.subscription.get({ organisation_id: organisationId, subscription_id: subscriptionId })
    .go();
  return data ?? null;
}

/** Several subscriptions by key in one BatchGet (the billing run reads a page's at once). */
export async function findSubscriptions(
  keys: { organisation_id: string; subscription_id: string }[],
): Promise<Map<string, SubscriptionRecord>> {
  const unique = [...new Map(keys.map((k) => [`${k.organisation_id}#${k.subscription_id}`, k])).values()];
  const out = new Map<string, SubscriptionRecord>();
  if (!unique.length) return out;
  const { data } = await db().entities.subscription.get(unique).go({ concurrency: 4 });
  for (const sub of data) out.set(sub.subscription_id, sub);
  return out;
}

/** A member's subscriptions in an organisation, newest first. */
export async function memberSubscriptions(
  organisationId: string,
  userId: string,
): Promise<SubscriptionRecord[]> {
  const { data } = await db()
    .entities.subscription.query.byMember({ organisation_id: organisationId, user_id: userId })
    .go({ order: "desc", pages: "all" });
  return data;
}

/** A gym's subscriptions, one page at a time. */
export async function gymSubscriptionsPage(
  organisationId: string,
  gymId: string,
  cursor: string | null = null,
  limit = 100,
) {
  const { data, cursor: next } = await db()
    .entities.subscription.query.byGym({ organisation_id: organisationId, gym_id: gymId })
    .go({ cursor, limit });
  return { items: data, cursor: next ?? null };
}

/** A price's subscriptions, one page at a time. */
export async function priceSubscriptionsPage(
  organisationId: string,
  priceId: string,
  cursor: string | null = null,
  limit = 100,
) {
  const { data, cursor: next } = await db()
    .entities.subscription.query.byPrice({ organisation_id: organisationId, price_id: priceId })
    .go({ cursor, limit });
  return { items: data, cursor: next ?? null };
}

/** Is a subscription still live (not cancelled with the cancellation in effect) at `now`? */
export function isLive(sub: SubscriptionRecord, now: Date): boolean {
  if (!sub.cancelled_at) return true;
  return !sub.cancellation_effective_at || sub.cancellation_effective_at > now.toISOString();
}
