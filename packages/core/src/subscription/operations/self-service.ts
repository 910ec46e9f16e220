/**
 * Member self-service (join site, docs/billing.md "Member self-service"): the member's own pause
 * and cancellation, the staff operations (pause.ts, cancel.ts) on the caller's own subscription.
 */
import type { Actor } from "../../auth/actor";
import { businessToday } from "../../clock";
import { ConflictError } from "../../errors";
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

/**
 * `POST /api/me/subscriptions/{id}/stop-trial` (docs/offers.md "Stopping during the trial"): the
 * member's own cancellation inside their trial, which takes effect at the trial's end and costs
 * nothing (billing/lifecycle.ts `cancellationTerms`). After the trial: 409 `not_in_trial`.
 */
export async function stopOwnTrial(actor: Actor, subscriptionId: string, body: unknown) {
  const [sub, today] = await Promise.all([ownSubscription(actor, subscriptionId), businessToday()]);
  if (!sub.cancelled_at && (!sub.trial_ends_on || today >= sub.trial_ends_on))
    throw new ConflictError("Your trial has ended: cancel your membership instead.", "not_in_trial");
  return cancelOwnSubscription(actor, subscriptionId, {
    cancellation_reasons: ["Stopped during the trial"],
    ...((body as object | undefined) ?? {}),
  });
}
