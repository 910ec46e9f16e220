/** Undoing a cancellation (docs/billing.md "Cancellation, cooling-off, terms"), before it takes effect. */
import type { Actor } from "../../auth/actor";
import { deriveSubscriptionState } from "../../billing/subscription-state";
import { businessNow } from "../../clock";
import { sendEmail } from "../../email/port";
import { ConflictError } from "../../errors";
import { log } from "../../log";
import { memberRecipient } from "../../user/recipient";
import { commitFacts, reachableSubscription } from "../lifecycle";
import { factsOf } from "../states";
import { cancellationUndoneEmail } from "./cancellation-email";

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
  const saved = await commitFacts(actor, sub, {
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
  // Committed: the member, told it was cancelled, is told it goes on. The undo stands if the email
  // cannot be sent; it is logged.
  const to = await memberRecipient(sub.user_id, sub);
  await sendEmail(
    cancellationUndoneEmail({
      member_name: to.name,
      member_email: to.email,
      gym_name: sub.gym_name,
      gym_ref: { organisation_id: sub.organisation_id, gym_id: sub.gym_id },
      break_fee_withdrawn: Boolean(sub.break_fee_payment_id),
      next: saved.next_charge ?? null,
    }),
  ).catch((error: Error) =>
    log.error("cancellation-undone email not sent", {
      subscription_id: sub.subscription_id,
      error: error.message,
    }),
  );
  return saved;
}
