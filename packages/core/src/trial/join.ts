/**
 * Taking a price's trial when joining (docs/offers.md "Trials"): whether the member may
 * (`trialForJoin`: once per price and organisation), the facts snapshotted on the subscription
 * (which the schedule reads, subscription/schedule.ts), and the write that records the use in the
 * subscription's transaction (`trialJoinItems`, conditional on not existing).
 */
import type { CivilDate } from "../billing/calendar";
import { type TrialJoin, trialOf } from "../billing/trial";
import type { PriceRecord } from "../price/present";
import { hasHadTrial } from "./store";

/** The trial a member gets when joining on `price` from `start` (null: none, or had it). */
export async function trialForJoin(
  organisationId: string,
  userId: string,
  price: Pick<PriceRecord, "price_id" | "trial_days" | "trial_amount" | "billing_frequency">,
  start: CivilDate,
): Promise<TrialJoin | null> {
  const trial = trialOf(price, start);
  if (!trial) return null;
  return (await hasHadTrial(organisationId, price.price_id, userId)) ? null : trial;
}

type UseTx = { create(item: Record<string, unknown>): { commit(): never } };

/** The member's one use of the price's trial, created in the join's transaction (never twice). */
export function trialJoinItems(
  tx: { trialUse: unknown },
  subscription: { organisation_id: string; price_id: string; user_id: string; subscription_id: string },
): never[] {
  return [
    (tx.trialUse as UseTx)
      .create({
        organisation_id: subscription.organisation_id,
        price_id: subscription.price_id,
        user_id: subscription.user_id,
        subscription_id: subscription.subscription_id,
      })
      .commit(),
  ];
}
