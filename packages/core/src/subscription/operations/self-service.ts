/**
 * Member self-service (join site, docs/billing.md "Member self-service"): the member's own pause
 * and cancellation, the staff operations (pause.ts, cancel.ts) on the caller's own subscription.
 */
import type { Actor } from "../../auth/actor";
import { ownSubscription } from "../lifecycle";
import { cancellationPreview, cancelSubscription } from "./cancel";
import { pauseSubscription, removePause } from "./pause";

/**
 * The member's own pause and cancellation: the same rules, credit and consequences as at the desk,
 * on the caller's own subscription only (anyone else's id: 404). A member cancels at the end of
 * the paid period (never immediately); inside a term after cooling-off the break fee is charged.
 */
export const pauseOwnSubscription = (actor: Actor, subscriptionId: string, body: unknown) =>
  pauseSubscription(actor, subscriptionId, body, ownSubscription);

export const removeOwnPause = (actor: Actor, subscriptionId: string) =>
  removePause(actor, subscriptionId, ownSubscription);

export const ownCancellationPreview = (actor: Actor, subscriptionId: string) =>
  cancellationPreview(actor, subscriptionId, false, ownSubscription);

export const cancelOwnSubscription = (actor: Actor, subscriptionId: string, body: unknown) =>
  cancelSubscription(
    actor,
    subscriptionId,
    { ...((body as object | undefined) ?? {}), immediate: false },
    ownSubscription,
  );
