/** Undoing a cancellation (docs/billing.md "Cancellation, cooling-off, terms"), before it takes effect. */
import type { Actor } from "../../auth/actor";
import { deriveSubscriptionState } from "../../billing/subscription-state";
import { businessNow } from "../../clock";
import { ConflictError } from "../../errors";
import { commitFacts, reachableSubscription } from "../lifecycle";
import { factsOf } from "../states";

/** `POST /api/subscriptions/{id}/undo-cancellation`: before it takes effect; an uncharged break fee goes too. */
export async function undoCancellation(actor: Actor, subscriptionId: string) {
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const now = await businessNow();
  const state = deriveSubscriptionState(factsOf(sub, now));
  if (!state.cancelled) throw new ConflictError("This membership is not cancelled.", "not_cancelled");
  if (!state.undo_cancellation_possible)
    throw new ConflictError(
      "This cancellation has taken effect and can no longer be undone.",
      "undo_not_possible",
    );
  if (sub.break_fee_payment_id) {
    const { cancelUpcomingPayment } = await import("../break-fee");
    await cancelUpcomingPayment(sub.organisation_id, sub.break_fee_payment_id);
  }
  return commitFacts(actor, sub, {
    set: { cancelled_during_cooling_off_period: false },
    remove: [
      "cancelled_at",
      "cancellation_effective_at",
      "undo_cancellation_until",
      "cancellation_reasons",
      "cancellation_comments",
      "break_fee_payment_id",
    ],
    event: { action: "cancel_undone", detail: "Cancellation undone" },
  });
}
