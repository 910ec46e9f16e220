/**
 * One live membership per member (docs/billing.md "One live membership per member"): the claim a
 * new subscription takes in its own transaction. Not an in-process check: two requests at once
 * (a double tap on Confirm, a phone retrying, staff adding pay in full while the member confirms)
 * both read "no membership", and only the conditional write of the claim decides between them.
 */
import { db } from "../db/service";
import { findSubscription, isLive, memberSubscriptions, type SubscriptionRecord } from "./store";

export interface MembershipClaim {
  /** The member's live subscription, if they have one (then nothing may be created). */
  live: SubscriptionRecord | null;
  /** The claim as read: its holder (a subscription no longer live), or none. */
  heldBy: SubscriptionRecord | { subscription_id: string; missing: true } | null;
}

/**
 * Reads the member's claim (consistently) and, through it, their live membership. Without a
 * claim (subscriptions made before claims existed, or bulk-seeded), the member's subscriptions
 * are read by their index.
 */
export async function readMembershipClaim(
  organisationId: string,
  userId: string,
  now: Date,
  /** The member's subscriptions when the caller is reading them already (the same query). */
  subscriptions?: Promise<SubscriptionRecord[]>,
  /** The claim when the caller reads it (consistently) in a batch of its own. */
  claimRead?: Promise<{ subscription_id: string } | null>,
): Promise<MembershipClaim> {
  const listed = () => subscriptions ?? memberSubscriptions(organisationId, userId);
  const claim = claimRead
    ? await claimRead
    : (
        await db()
          .entities.membershipClaim.get({ organisation_id: organisationId, user_id: userId })
          .go({ consistent: true })
      ).data;
  if (claim) {
    const holder = await findSubscription(organisationId, claim.subscription_id);
    if (holder && isLive(holder, now)) return { live: holder, heldBy: holder };
    const others = (await listed()).find((s) => isLive(s, now));
    return {
      live: others ?? null,
      heldBy: holder ?? { subscription_id: claim.subscription_id, missing: true },
    };
  }
  const live = (await listed()).find((s) => isLive(s, now));
  return { live: live ?? null, heldBy: null };
}

type ClaimTx = { membershipClaim: unknown; subscription: unknown };
type Committable = { commit(): never };
type Where = (attrs: Record<string, unknown>, op: Record<string, (...a: unknown[]) => string>) => string;
type Claimable = {
  create(item: Record<string, unknown>): Committable;
  patch(key: Record<string, string>): {
    set(values: Record<string, unknown>): { where(w: Where): Committable };
  };
  check(key: Record<string, string>): { where(w: Where): Committable };
};

/**
 * The transaction items that take the claim for a new subscription: create it when none was read,
 * else move it from the holder read, conditional on the claim still naming that holder and the
 * holder's cancellation being as read (an undone cancellation makes it live again).
 */
export function claimItems(
  tx: ClaimTx,
  claim: MembershipClaim,
  sub: { organisation_id: string; user_id: string; subscription_id: string },
): never[] {
  const claims = tx.membershipClaim as Claimable;
  const key = { organisation_id: sub.organisation_id, user_id: sub.user_id };
  const held = claim.heldBy;
  if (!held) return [claims.create({ ...key, subscription_id: sub.subscription_id }).commit()];
  const items = [
    claims
      .patch(key)
      .set({ subscription_id: sub.subscription_id })
      .where((a, op) => op.eq(a.subscription_id, held.subscription_id))
      .commit(),
  ];
  if (!("missing" in held)) {
    const subscriptions = tx.subscription as Claimable;
    items.push(
      subscriptions
        .check({ organisation_id: sub.organisation_id, subscription_id: held.subscription_id })
        .where((a, op) => op.eq(a.cancellation_effective_at, held.cancellation_effective_at))
        .commit(),
    );
  }
  return items;
}
