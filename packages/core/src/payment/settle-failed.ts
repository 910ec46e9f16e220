/**
 * Settlement of a failed answer (settle.ts `applyOutcome` calls it): the payment failed or
 * declined, the subscription's debt, grace and next retry (dunning's rules, dunning/rules.ts) and
 * its dunning item, in one transaction with its `payment_outcome` outbox event (delivered by the
 * caller); then the member's failed-payment email.
 */
import { aucklandDate } from "../billing/calendar";
import { db } from "../db/service";
import { emailSender } from "../email/port";
import { log } from "../log";
import { organisationSettings } from "../organisation/settings";
import { outboxItem } from "../outbox/outbox";
import { paymentRollup } from "../rollup/money";
import { rollupItems } from "../rollup/writes";
import { memberRecipient } from "../user/recipient";
import type { AcceptedCall } from "../webhook-log/receive";
import { gymOf, settingsOf } from "./context";
import { debtAfterFailure } from "./dunning/rules";
import { dunningKeys } from "./dunning/store";
import { paymentFailedEmail } from "./emails";
import { paymentOutcomeEvent } from "./outcome";
import type { ChargeOutcome } from "./providers";
import { providerIds, reconcileKey, type SettlementHeld, subscriptionOf } from "./settle-held";
import { ATTENTION_FIELDS, type PaymentRecord, subscriptionPayments } from "./store";

export async function settleFailed(
  payment: PaymentRecord,
  outcome: Extract<ChargeOutcome, { state: "failed" }>,
  now: Date,
  held: SettlementHeld,
  call: AcceptedCall | undefined,
) {
  const ids = providerIds(payment, outcome);
  const at = now.toISOString();
  const reconcile = reconcileKey(payment, ids, at);
  const sub = await subscriptionOf(payment, held);
  const settings = held.organisation
    ? organisationSettings(held.organisation)
    : await settingsOf(payment.organisation_id);
  const payments = sub
    ? await subscriptionPayments(sub.organisation_id, sub.user_id, sub.subscription_id)
    : [];
  const debt = sub ? debtAfterFailure(sub, payments, payment, outcome.hard, now, settings) : null;
  const owingBefore = sub?.balance_owing ?? 0;
  const owingAfter = debt?.balance_owing ?? owingBefore;
  const counted = paymentRollup(payment, sub, aucklandDate(now), {
    failed: payment.amount,
    failed_count: 1,
    owing: owingAfter - owingBefore,
    owing_count: (owingAfter > 0 ? 1 : 0) - (owingBefore > 0 ? 1 : 0),
  });
  // The members back-office's reaction (the activity entry), with the failure (outbox/events.ts).
  const event = paymentOutcomeEvent(payment, "failed", { reason: outcome.message }, now);
  const result = await db()
    .transaction.write(
      ({ payment: payments, subscription, dunning, rollup, memberMonth, webhookCall, outboxEvent }) => {
        const writes = [
          outboxItem({ outboxEvent }, event),
          ...rollupItems({ rollup, memberMonth }, counted),
          ...(call ? [webhookCall.create(call.item).commit() as never] : []),
          payments
            .patch({ organisation_id: payment.organisation_id, payment_id: payment.payment_id })
            .set({
              ...ids,
              ...reconcile,
              status: outcome.hard ? "declined" : "failed",
              error_status: outcome.code,
              error_description: outcome.message,
              decline_kind: outcome.hard ? "hard" : "soft",
              charged_at: payment.charged_at ?? at,
              settled_at: at,
              balance_owing: debt?.balance_owing ?? payment.amount,
              periods_owing: debt?.periods_owing ?? 1,
            })
            .remove(reconcile ? [...ATTENTION_FIELDS] : ["work_key", "work_sort", ...ATTENTION_FIELDS])
            .add({ version: 1 })
            .where(
              (a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "pending_request")}`,
            )
            .commit(),
        ];
        if (sub && debt) {
          const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
          writes.push(
            subscription
              .patch(key)
              .set({
                balance_owing: debt.balance_owing,
                periods_owing: debt.periods_owing,
                failed_at: debt.failed_at,
                grace_period_ends_at: debt.grace_period_ends_at,
                hard_declined: debt.hard_declined,
                latest_payment_id: payment.payment_id,
                ...(debt.next_retry_on ? { next_retry_on: debt.next_retry_on } : {}),
                ...(sub.first_payment_id === payment.payment_id && sub.upcoming_state
                  ? { upcoming_state: "failed" as const }
                  : {}),
              })
              .remove([
                ...(debt.next_retry_on ? [] : (["next_retry_on"] as const)),
                ...(payment.is_retry ? (["retry_payment_id"] as const) : []),
              ])
              .add({ version: 1 })
              .where((a, op) => op.eq(a.version, sub.version))
              .commit() as never,
            dunning
              .put({
                ...key,
                ...dunningKeys.grace(sub.subscription_id, debt.grace_period_ends_at),
                ...(debt.next_retry_on ? dunningKeys.retry(sub.subscription_id, debt.next_retry_on) : {}),
              })
              .commit() as never,
          );
        }
        return writes;
      },
    )
    .go();
  if (!result.canceled && call) call.written = true;
  if (!result.canceled && sub && debt) {
    const gym =
      held.gym?.gym_id === payment.gym_id ? held.gym : await gymOf(payment.organisation_id, payment.gym_id);
    try {
      const to = await memberRecipient(payment.user_id, sub);
      await emailSender().send(
        paymentFailedEmail({
          to: to.email,
          name: to.name,
          gym: gym.name,
          gym_ref: { organisation_id: payment.organisation_id, gym_id: payment.gym_id },
          amount: payment.amount + payment.surcharge,
          reason: outcome.message,
          hard: debt.hard_declined,
          nextRetryOn: debt.next_retry_on,
          graceEndsAt: debt.grace_period_ends_at,
        }),
      );
    } catch (error) {
      log.error("payment failed email not sent", {
        payment_id: payment.payment_id,
        error: (error as Error).message,
      });
    }
  }
  return { canceled: result.canceled, event };
}
