/**
 * The schedule's invariant (issue 39, docs/billing.md "The schedule never stops"): a live
 * subscription whose schedule has a charge after its last planned one holds an `upcoming` payment.
 * A claim always writes the next payment with it (payment/jobs/billing-run.ts), so a subscription
 * without one has stopped billing and nothing else would notice. Read-only; the reconciliation job
 * runs it daily over the subscriptions of the payments it checks (every claimed charge settles and
 * is reconciled, so a claim left without its next payment is found the day after).
 */
import { db } from "../db/service";
import { chargeAfterOf } from "../subscription/schedule";
import { isLive, type SubscriptionRecord } from "../subscription/store";
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
