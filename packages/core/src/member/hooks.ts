/**
 * What the money engine and the lifecycle operations tell the members back-office, called right
 * after their own write committed: the member's latest subscription (the members list reads its
 * state from it) and an activity entry. Never throws into the operation (activity.ts).
 */

import { syncDoorAccessQuietly } from "../access/sync";
import { startOfAucklandDay } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { db } from "../db/service";
import { log } from "../log";
import { receiptForPaidPayment } from "../receipt/service";
import { nzDate } from "../text";
import { recordActivity } from "./activity";

interface SubscriptionFacts {
  organisation_id: string;
  user_id: string;
  subscription_id: string;
  price_label?: string | null;
  offering_name?: string | null;
  gym_name?: string | null;
  start_date: string;
}

/** A subscription was created: it is now the member's latest. */
export async function memberSubscribed(sub: SubscriptionFacts, actorId?: string) {
  try {
    const key = { organisation_id: sub.organisation_id, user_id: sub.user_id };
    const { data: member } = await db().entities.member.get(key).go();
    if (member) {
      // A membership that started before the account was made here (imported, back-dated) dates the join.
      const started = startOfAucklandDay(sub.start_date).toISOString();
      await db()
        .entities.member.patch(key)
        .set({
          latest_subscription_id: sub.subscription_id,
          ...(started < member.joined_at ? { joined_at: started } : {}),
        })
        .go();
    }
  } catch (error) {
    // No member record yet (a user without a member role): the list finds the subscription by query.
    log.warn("member_latest_subscription_not_set", { user_id: sub.user_id, error: String(error) });
  }
  await syncDoorAccessQuietly(sub.organisation_id, sub.user_id);
  await recordActivity({
    organisation_id: sub.organisation_id,
    user_id: sub.user_id,
    kind: "subscription_created",
    summary: `Joined ${[sub.offering_name, sub.price_label].filter(Boolean).join(" · ")}${
      sub.gym_name ? ` at ${sub.gym_name}` : ""
    }`,
    detail: `Starts ${nzDate(sub.start_date)}`,
    subscription_id: sub.subscription_id,
    actor_id: actorId,
  });
}

const lifecycleSummaries: Record<string, string> = {
  pause: "Membership paused",
  pause_removed: "Pause removed",
  cancel: "Membership cancelled",
  cancel_undone: "Cancellation undone",
  price_change_scheduled: "Price change scheduled",
  start_now: "Membership started early",
  manual_payment: "Manual payment recorded",
};

/** A lifecycle operation (pause, cancel, price change, start now, manual payment) changed a subscription. */
export async function memberLifecycleChanged(
  sub: { organisation_id: string; user_id: string; subscription_id: string },
  event: { action: string; detail: string; by: string },
) {
  await syncDoorAccessQuietly(sub.organisation_id, sub.user_id);
  await recordActivity({
    organisation_id: sub.organisation_id,
    user_id: sub.user_id,
    kind: `subscription_${event.action}`,
    summary: lifecycleSummaries[event.action] ?? event.action.replace(/_/g, " "),
    detail: event.detail,
    subscription_id: sub.subscription_id,
    actor_id: event.by,
  });
}

/** A payment reached its outcome (paid, failed, received by staff). */
export async function memberPaymentSettled(
  payment: {
    organisation_id: string;
    user_id: string;
    payment_id: string;
    subscription_id?: string | null;
    amount: number;
    surcharge?: number | null;
    is_retry?: boolean | null;
    due_on: string;
  },
  outcome: "paid" | "failed" | "received",
  extra: { actor_id?: string; reason?: string | null } = {},
) {
  if (outcome !== "failed") await syncDoorAccessQuietly(payment.organisation_id, payment.user_id);
  // Paid or received: the member's receipt, issued and emailed once (docs/communications.md).
  if (outcome !== "failed") await receiptForPaidPayment(payment.organisation_id, payment.payment_id);
  const total = formatCents(payment.amount + (payment.surcharge ?? 0));
  const what = payment.is_retry ? "Retry payment" : "Payment";
  await recordActivity({
    organisation_id: payment.organisation_id,
    user_id: payment.user_id,
    kind: `payment_${outcome}`,
    summary:
      outcome === "paid"
        ? `${what} of ${total} succeeded`
        : outcome === "failed"
          ? `${what} of ${total} failed`
          : `Bank transfer of ${total} marked received`,
    detail: extra.reason ?? `Due ${nzDate(payment.due_on)}`,
    payment_id: payment.payment_id,
    subscription_id: payment.subscription_id ?? undefined,
    actor_id: extra.actor_id,
  });
}
