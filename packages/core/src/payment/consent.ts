/**
 * Payment-method changes that billing reacts to:
 *  - a member's default payment type changed (switch, new card, new bank consent): their live
 *    subscription charges it from now on, payments held for a bank consent go back to the due
 *    index, and an owed balance is retried at once with the new method;
 *  - re-consent: an Akahu enduring consent names its payee accounts and limits, so when a gym's
 *    destination account changes, or a price rises above what members consented to, its
 *    bank-paying members must consent again. They get `reauthenticate` on their bank payment type
 *    (`reauthenticate_akahu`), an email with a link, and are not charged by bank until they
 *    consent: their due payments wait in the hold index, visible, without grace.
 */
import { businessNow } from "../clock";
import { db } from "../db/service";
import { emailSender } from "../email/port";
import { log } from "../log";
import type { OutboxEvents } from "../outbox/events";
import type { OutboxMeta } from "../outbox/outbox";
import {
  defaultPaymentTypeOf,
  findPaymentType,
  listPaymentTypeRecords,
  type PaymentTypeRecord,
} from "../payment-type/service";
import { scheduledChanges } from "../rollup/money";
import { rollupItems } from "../rollup/writes";
import {
  findSubscription,
  gymSubscriptionsPage,
  isLive,
  memberSubscriptions,
  priceSubscriptionsPage,
  type SubscriptionRecord,
} from "../subscription/store";
import { memberRecipient } from "../user/recipient";
import { gymOf } from "./context";
import { retryBalance } from "./dunning/payment-retries";
import { reconsentEmail } from "./emails";
import { localChargeQueue } from "./queue";
import { heldPayments, workKeys } from "./store";

/** Moves a member's held payments back to the due index (the next billing run charges them). */
export async function releaseHeldPayments(organisationId: string, userId: string): Promise<number> {
  let released = 0;
  for (const payment of await heldPayments(organisationId, userId)) {
    const { canceled } = await db()
      .transaction.write(({ payment: payments, rollup, memberMonth }) => [
        payments
          .patch({ organisation_id: organisationId, payment_id: payment.payment_id })
          .set(workKeys.due(payment.payment_id, payment.due_on))
          .remove(["waiting_for"])
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
          .commit(),
        // No longer waiting: counted among the payments to charge on its day again.
        ...rollupItems(
          { rollup, memberMonth },
          ...scheduledChanges(payment, { ...payment, waiting_for: undefined }),
        ),
      ])
      .go();
    if (!canceled) released += 1;
  }
  return released;
}

/** Is this payment type still the member's default (a later save or switch may have replaced it)? */
async function stillDefault(organisationId: string, userId: string, paymentTypeId: string) {
  return (await defaultPaymentTypeOf(organisationId, userId))?.payment_type_id === paymentTypeId;
}

/** A switch of default payment type retries an owed balance (wired by core.ts `createCore`). */
export async function onDefaultChanged(
  organisationId: string,
  userId: string,
  paymentType: PaymentTypeRecord,
) {
  const now = await businessNow();
  for (const found of await memberSubscriptions(organisationId, userId)) {
    if (!isLive(found, now)) continue;
    let sub: SubscriptionRecord | null = found;
    for (let attempt = 0; attempt < 4 && sub; attempt++) {
      // Read after the subscription: a change of default that lands after this check changes the
      // subscription's version too (its own hook writes it), so this write then fails and re-checks.
      if (!(await stillDefault(organisationId, userId, paymentType.payment_type_id))) return;
      const { canceled } = await db()
        .transaction.write(({ subscription }) => [
          subscription
            .patch({ organisation_id: organisationId, subscription_id: sub!.subscription_id })
            .set({
              payment_type_id: paymentType.payment_type_id,
              payment_method: paymentType.type,
              waiting_for_consent: false,
              // A new method can be retried: a hard decline was about the old one.
              hard_declined: false,
            })
            .add({ version: 1 })
            .where((a, op) => op.eq(a.version, sub!.version))
            .commit(),
        ])
        .go();
      if (!canceled) break;
      sub = await findSubscription(organisationId, found.subscription_id);
    }
    await releaseHeldPayments(organisationId, userId);
    const fresh = await findSubscription(organisationId, found.subscription_id);
    if (
      fresh &&
      fresh.balance_owing > 0 &&
      !fresh.retry_payment_id &&
      (await stillDefault(organisationId, userId, paymentType.payment_type_id))
    ) {
      // At most one retry of the balance at a time: retryBalance is conditional on the version read
      // (fresh) and a retry in flight is named on the subscription (retry_payment_id).
      // Retried at once with the new method, in this process (the member is waiting for the answer).
      const queue = localChargeQueue(1);
      const retry = await retryBalance(fresh, now, `switch#${paymentType.payment_type_id}#${fresh.version}`, {
        queue,
        paymentType,
        advancesSchedule: false,
      });
      await queue.drain();
      log.info("balance retried after a payment method switch", {
        subscription_id: fresh.subscription_id,
        retried: Boolean(retry),
      });
    }
  }
}

/**
 * The outbox's `default_payment_type_changed` (wired by core.ts `createCore`): the payment type as
 * saved (inline, `held`) or read now; one removed since changes nothing. Idempotent: the
 * subscriptions take it (a write of the same values), the balance's retry is keyed by the switch.
 */
export async function defaultPaymentTypeChanged(
  event: OutboxEvents["default_payment_type_changed"],
  { held }: OutboxMeta,
) {
  const paymentType =
    (held as PaymentTypeRecord | undefined) ??
    (await findPaymentType(event.organisation_id, event.user_id, event.payment_type_id));
  if (paymentType?.status !== "active") return;
  await onDefaultChanged(event.organisation_id, event.user_id, paymentType);
}

/**
 * The outbox's `destination_account_changed` (wired by core.ts `createCore`): the gym's bank payers
 * are asked to consent again, each once for this event (`reconsent_event_id`).
 */
export async function destinationAccountChanged(
  event: OutboxEvents["destination_account_changed"],
  { event_id }: OutboxMeta,
) {
  const gym = await gymOf(event.organisation_id, event.gym_id);
  await requireBankReconsent(
    event.organisation_id,
    { gym_id: event.gym_id },
    `${gym.name} has a new bank account for membership payments.`,
    event_id,
  );
}

/**
 * Every live bank-paying subscription of a gym (destination account changed) or of a price
 * (raised above the consent limit) must consent again. Answers how many members were asked.
 */
export async function requireBankReconsent(
  organisationId: string,
  scope: { gym_id: string } | { price_id: string },
  reason: string,
  /** The outbox event asking (a redelivery skips the subscriptions it asked already). */
  eventId?: string,
): Promise<number> {
  const now = await businessNow();
  let asked = 0;
  let cursor: string | null = null;
  do {
    const page: { items: SubscriptionRecord[]; cursor: string | null } =
      "gym_id" in scope
        ? await gymSubscriptionsPage(organisationId, scope.gym_id, cursor)
        : await priceSubscriptionsPage(organisationId, scope.price_id, cursor);
    cursor = page.cursor;
    for (const sub of page.items) {
      if (!isLive(sub, now) || sub.payment_method !== "bank_account") continue;
      if (eventId && sub.reconsent_event_id === eventId) continue;
      for (const type of await listPaymentTypeRecords(organisationId, sub.user_id)) {
        if (type.type !== "bank_account" || type.status !== "active") continue;
        await db()
          .entities.paymentType.patch({
            organisation_id: organisationId,
            user_id: sub.user_id,
            payment_type_id: type.payment_type_id,
          })
          .set({ status: "reauthenticate" })
          .add({ version: 1 })
          .go();
      }
      await db()
        .entities.subscription.patch({
          organisation_id: organisationId,
          subscription_id: sub.subscription_id,
        })
        .set({ waiting_for_consent: true, ...(eventId ? { reconsent_event_id: eventId } : {}) })
        .add({ version: 1 })
        .go();
      asked += 1;
      try {
        const to = await memberRecipient(sub.user_id, sub);
        await emailSender().send(
          reconsentEmail({
            to: to.email,
            name: to.name,
            gym: sub.gym_name,
            gym_ref: { organisation_id: sub.organisation_id, gym_id: sub.gym_id },
            reason,
          }),
        );
      } catch (error) {
        log.error("re-consent email not sent", {
          subscription_id: sub.subscription_id,
          error: (error as Error).message,
        });
      }
    }
  } while (cursor);
  return asked;
}
