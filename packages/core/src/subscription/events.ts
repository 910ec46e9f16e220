/**
 * The subscription layer's events for the layers above it: a subscription was created, or a
 * lifecycle operation (pause, cancel, price change, start now, manual payment) changed one. The
 * members back-office subscribes (member/hooks.ts: the member's latest subscription, door access,
 * the activity entry), wired in core.ts, so subscriptions import nothing above them. Told right
 * after the operation's own write committed; a subscriber never throws into it.
 */

import type { GymRecord } from "../gym/service";
import type { Organisation } from "../organisation/service";
import type { SubscriptionRecord } from "./store";

/** What a created subscription tells. */
export interface SubscriptionFacts {
  organisation_id: string;
  user_id: string;
  subscription_id: string;
  price_label?: string | null;
  offering_name?: string | null;
  gym_name?: string | null;
  start_date: string;
}

/**
 * What making it read, in the same request, for a subscriber that would read it again: the
 * organisation, the gym, the member and their subscriptions (the new one first). Records of this
 * request only, never kept.
 */
export interface SubscribedRead {
  organisation: Organisation;
  gym: GymRecord;
  user: { email: string; name: string };
  subscriptions: SubscriptionRecord[];
}

type SubscribedListener = (sub: SubscriptionFacts, actorId?: string, read?: SubscribedRead) => Promise<void>;
const subscribedListeners: SubscribedListener[] = [];

/** Subscribes to a subscription's creation (core.ts wires the subscribers). */
export function onSubscribed(listener: SubscribedListener) {
  subscribedListeners.push(listener);
}

/** Tells the subscribers that a subscription was created (by `actorId`, when staff did). */
export async function subscribed(
  sub: SubscriptionFacts,
  actorId?: string,
  read?: SubscribedRead,
): Promise<void> {
  for (const listener of subscribedListeners) await listener(sub, actorId, read);
}

export type LifecycleChange = { action: string; detail: string; by: string };
type ChangedListener = (
  sub: { organisation_id: string; user_id: string; subscription_id: string },
  event: LifecycleChange,
) => Promise<void>;
const changedListeners: ChangedListener[] = [];

/** Subscribes to a lifecycle operation's change (core.ts wires the subscribers). */
export function onLifecycleChanged(listener: ChangedListener) {
  changedListeners.push(listener);
}

/** Tells the subscribers that a lifecycle operation changed a subscription. */
export async function lifecycleChanged(
  sub: { organisation_id: string; user_id: string; subscription_id: string },
  event: LifecycleChange,
): Promise<void> {
  for (const listener of changedListeners) await listener(sub, event);
}
