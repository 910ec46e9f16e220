/**
 * What the money engine and the lifecycle operations tell the members back-office: the member's
 * latest subscription (the members list reads its state from it), door access and an activity
 * entry. The lower layers write their events into the outbox in their own transaction
 * (outbox/events.ts); the handlers here are wired in core.ts and loaded on their first call, so
 * no lower layer imports this file. Each is idempotent by the event's id (the activity entry's id
 * is the event's): an event is delivered at least once (outbox/outbox.ts).
 */

import { syncDoorAccess, syncDoorAccessQuietly } from "../access/sync";
import { startOfAucklandDay } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { db } from "../db/service";
import { brandOfGym } from "../gym/email-brand";
import { log } from "../log";
import type { OutboxEvents } from "../outbox/events";
import type { OutboxMeta } from "../outbox/outbox";
import type {
  OutcomeDetail,
  PaidHeld,
  PaidSettlement,
  PaidTransactionEntities,
  PaymentOutcome,
  SettledPayment,
} from "../payment/outcome";
import type { PaymentRecord } from "../payment/store";
import {
  emailReceiptOnce,
  nextReceiptNumber,
  type ReceiptMailHeld,
  type ReceiptRecord,
  receiptContent,
  receiptForPaidPayment,
} from "../receipt/service";
import type { SubscribedRead } from "../subscription/events";
import { nzDate } from "../text";
import { type ActivityInput, activityRecord, recordActivity } from "./activity";
import { indexMember } from "./search-index";

/** A cancellation for non-payment revokes the member's door access. */
export async function memberCancelledForNonPayment(sub: { organisation_id: string; user_id: string }) {
  await syncDoorAccess(sub.organisation_id, sub.user_id);
}

/**
 * A role written (outbox `role_written`): members are listed and searched from the member record
 * and search index, so a member's gyms changed. Delivered again, the record is read again (converges).
 * Registering writes its member record and search terms in its own transaction (no event).
 */
export async function memberRoleWritten(role: OutboxEvents["role_written"]) {
  if (!role.member_gym_ids.length) return;
  await indexMember({
    organisation_id: role.organisation_id,
    user_id: role.user_id,
    gym_ids: role.member_gym_ids,
  });
}

/**
 * A subscription was created (outbox `subscribed`): it is now the member's latest, their door
 * access follows it, and the activity has it (once: its id is the event's). Three independent
 * writes on different items: side by side. Inline, `held` is what making it read (the new
 * subscription among the member's), not read again.
 */
export async function memberSubscribed(sub: OutboxEvents["subscribed"], { event_id, held }: OutboxMeta) {
  await Promise.all([
    markLatest(sub),
    syncDoorAccessQuietly(sub.organisation_id, sub.user_id, held as SubscribedRead | undefined),
    recordActivity({
      organisation_id: sub.organisation_id,
      user_id: sub.user_id,
      kind: "subscription_created",
      summary: `Joined ${[sub.offering_name, sub.price_label].filter(Boolean).join(" · ")}${
        sub.gym_name ? ` at ${sub.gym_name}` : ""
      }`,
      detail: `Starts ${nzDate(sub.start_date)}`,
      subscription_id: sub.subscription_id,
      actor_id: sub.actor_id,
      at: new Date(sub.at),
      event_id,
    }),
  ]);
}

/**
 * The member record's latest subscription (the members list reads its state from it), and its
 * join date when the membership started earlier (imported, back-dated): two conditional updates
 * side by side, no read. No member record (a user without a member role): nothing is written, the
 * list finds the subscription by query.
 */
async function markLatest(sub: {
  organisation_id: string;
  user_id: string;
  subscription_id: string;
  start_date: string;
}) {
  const key = { organisation_id: sub.organisation_id, user_id: sub.user_id };
  const started = startOfAucklandDay(sub.start_date).toISOString();
  // A refused condition (no record; joined before this start) writes nothing, as meant.
  const unlessRefused = (error: unknown) => {
    if (!/conditional/i.test(String((error as { message?: string })?.message))) throw error;
  };
  try {
    await Promise.all([
      db()
        .entities.member.patch(key)
        .set({ latest_subscription_id: sub.subscription_id })
        .go()
        .catch(unlessRefused),
      db()
        .entities.member.patch(key)
        .set({ joined_at: started })
        .where((attr, op) => op.gt(attr.joined_at, started))
        .go()
        .catch(unlessRefused),
    ]);
  } catch (error) {
    log.warn("member_latest_subscription_not_set", { user_id: sub.user_id, error: String(error) });
  }
}

const lifecycleSummaries: Record<string, string> = {
  pause: "Membership paused",
  pause_removed: "Pause removed",
  cancel: "Membership cancelled",
  cancel_undone: "Cancellation undone",
  price_change_scheduled: "Price change scheduled",
  start_now: "Membership started early",
  manual_payment: "Manual payment recorded",
  pass_visits_added: "Visits added to the pass",
};

/** A lifecycle operation changed a subscription (outbox `lifecycle_changed`): door access, the activity once. */
export async function memberLifecycleChanged(
  change: OutboxEvents["lifecycle_changed"],
  { event_id }: OutboxMeta,
) {
  await syncDoorAccessQuietly(change.organisation_id, change.user_id);
  await recordActivity({
    organisation_id: change.organisation_id,
    user_id: change.user_id,
    kind: `subscription_${change.action}`,
    summary: lifecycleSummaries[change.action] ?? change.action.replace(/_/g, " "),
    detail: change.detail,
    subscription_id: change.subscription_id,
    actor_id: change.by,
    at: new Date(change.at),
    event_id,
  });
}

/** The activity entry of a payment's outcome. */
function paymentActivity(
  payment: SettledPayment,
  outcome: PaymentOutcome,
  extra: OutcomeDetail = {},
): ActivityInput {
  const total = formatCents(payment.amount + (payment.surcharge ?? 0));
  const what = payment.is_retry ? "Retry payment" : "Payment";
  return {
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
  };
}

/**
 * A payment failed, or a transfer was marked received (outbox `payment_outcome`): received, door
 * access and the receipt (issued and emailed once per payment); the activity entry once.
 */
export async function memberPaymentOutcome(
  payment: OutboxEvents["payment_outcome"],
  { event_id }: OutboxMeta,
) {
  // Three independent reactions, each idempotent on its own, side by side.
  await Promise.all([
    ...(payment.outcome === "received"
      ? [
          syncDoorAccessQuietly(payment.organisation_id, payment.user_id),
          receiptForPaidPayment(payment.organisation_id, payment.payment_id),
        ]
      : []),
    recordActivity({
      ...paymentActivity(payment, payment.outcome, payment),
      at: new Date(payment.at),
      event_id,
    }),
  ]);
}

/**
 * A payment paid by a provider's answer (outbox `payment_paid`, written in the settlement's
 * transaction with the receipt): the receipt emailed at most once (a claim on the receipt), door
 * access synced when the settlement changed the member's standing. Both throw on failure, so the
 * outbox delivers the event again: the sync converges, the claim keeps the email to one. Inline,
 * `held` is what the settlement wrote and read (the payment, the receipt, the gym's brand, the
 * member), not read again.
 */
export async function memberPaymentPaid(paid: OutboxEvents["payment_paid"], { held }: OutboxMeta) {
  await Promise.all([
    paid.standing_changed ? syncDoorAccess(paid.organisation_id, paid.user_id) : undefined,
    emailReceiptOnce(paid.organisation_id, paid.payment_id, held as ReceiptMailHeld | undefined),
  ]);
}

/** What a transaction callback offers for the parts below (ElectroDB's transaction entities). */
type TxCreate = { create(item: Record<string, unknown>): { commit(): unknown } };

/**
 * A payment being settled as paid by a provider's answer (payment/settle.ts): what the members
 * side writes **in the settlement's own transaction**, so it happens exactly when the payment
 * moves to paid and costs no request of its own: the receipt (its number taken once, one ADD on
 * the organisation's counter; docs/communications.md "Receipts") and the activity entry. Only the
 * answer whose conditional write moves the payment commits them, so the receipt cannot exist yet
 * (no read for it). Its email and door access follow through the outbox (`payment_paid`,
 * `memberPaymentPaid`); `held` is what that delivery is given inline (the brand of the gym the
 * caller read, no lookup).
 */
export function paidSettlement(): PaidSettlement {
  let number: number | undefined;
  return {
    /** The transaction items, for the payment as it is written (status sent, `settled_at`). */
    async prepare(paid: PaymentRecord, held: PaidHeld) {
      number ??= await nextReceiptNumber(paid.organisation_id);
      const at = new Date();
      const receipt: ReceiptRecord = {
        organisation_id: paid.organisation_id,
        payment_id: paid.payment_id,
        number,
        issued_at: at.toISOString(),
        content: await receiptContent(paid, held),
      };
      const activity = activityRecord({ ...paymentActivity(paid, "paid"), at });
      const mail: ReceiptMailHeld = {
        payment: paid,
        receipt,
        brand: held.gym ? brandOfGym(held.gym) : undefined,
        recipient: held.recipient,
      };
      return {
        items: (tx: PaidTransactionEntities) =>
          [
            (tx.receipt as TxCreate).create({ ...receipt, user_id: paid.user_id }).commit(),
            (tx.memberActivity as TxCreate).create(activity).commit(),
          ] as never[],
        held: mail,
      };
    },
  };
}
