/**
 * billing-run (jobs/schedule.ts): page through the due index for the business date; claim each
 * payment (`upcoming` → `pending_request`, version checked) together with creating the next
 * upcoming payment; hand the claimed ones to the charge queue. Idempotent and safe to run twice at
 * once: every change is a conditional write, and a lost race is counted, not retried blindly.
 * Just over 300 lines: `claimOne` is one claim transaction with its fall-backs, clearest whole.
 */

import { aucklandDate } from "../../billing/calendar";
import { creditToSpend } from "../../billing/lifecycle";
import { type CancellationReason, cancelledTransiently, retryWait } from "../../db/retry";
import { db } from "../../db/service";
import { log } from "../../log";
import type { PaymentTypeRecord } from "../../payment-type/present";
import { findPaymentTypes } from "../../payment-type/service";
import { racePoint } from "../../race-points";
import { paymentRollup, scheduledChanges } from "../../rollup/money";
import { rollupItems } from "../../rollup/writes";
import { chargeAfterOf } from "../../subscription/schedule";
import { findSubscription, findSubscriptions, type SubscriptionRecord } from "../../subscription/store";
import { type BillingContext, batchContext } from "../context";
import { cancelForNonPayment } from "../dunning/cancel-for-non-payment";
import { idempotencyKeyOf } from "../ids";
import { notePaymentMonths } from "../months";
import { newPayment } from "../new-payment";
import { type ChargeMessage, chargeQueue } from "../queue";
import { type PaymentRecord, workKeys, workPages } from "../store";
import { surchargeOfCharge } from "../surcharge";
import { eachLimited, type JobOptions } from "./options";

function civil(iso: string | undefined, fallback: string) {
  return iso ? aucklandDate(new Date(iso)) : fallback;
}

function cancellationInEffect(sub: SubscriptionRecord, on: string) {
  return Boolean(
    sub.cancelled_at &&
      sub.cancellation_effective_at &&
      aucklandDate(new Date(sub.cancellation_effective_at)) <= on,
  );
}

function needsConsent(sub: SubscriptionRecord, paymentType: PaymentTypeRecord | undefined) {
  if (!paymentType) return sub.payment_method === "bank_account";
  return (
    paymentType.type === "bank_account" &&
    (paymentType.status === "reauthenticate" || sub.waiting_for_consent)
  );
}

type ClaimResult = "claimed" | "lost" | "held" | "cancelled" | "skipped";

/** Tries of one claim transaction (the first and its retries) before it is left to the next pass. */
const CLAIM_ATTEMPTS = 4;

/**
 * Claims one due payment: conditional on `upcoming` at the version read. In the same transaction
 * the next upcoming payment is created (conditional on not existing: its id is deterministic) and
 * the subscription's billing state advanced (conditional on the version read). All three are
 * written, or none: a cancelled transaction is tried again whole, or answered `lost` with `again`
 * (the next pass of the run takes it). A subscription already past this payment (its next payment
 * planned) is checked in the same transaction instead of advanced.
 */
async function claimOne(
  payment: PaymentRecord,
  sub: SubscriptionRecord | undefined,
  paymentType: PaymentTypeRecord | undefined,
  now: Date,
  context: BillingContext,
  attempt = 0,
): Promise<{ result: ClaimResult; claimed?: PaymentRecord; again?: boolean }> {
  const key = { organisation_id: payment.organisation_id, payment_id: payment.payment_id };
  // A break fee is due on the day its cancellation is made, so it is charged even when that is the effect date.
  const isBreakFee = (payment.meta as { kind?: string } | undefined)?.kind === "break_fee";
  if (!sub || (cancellationInEffect(sub, payment.due_on) && !isBreakFee)) {
    const { canceled } = await db()
      .transaction.write(({ payment: payments, rollup, memberMonth }) => [
        payments
          .patch(key)
          .set({
            status: "cancelled",
            error_description: "The membership ended before this payment was due.",
          })
          .remove(["work_key", "work_sort"])
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
          .commit(),
        ...rollupItems({ rollup, memberMonth }, ...scheduledChanges(payment, null)),
      ])
      .go();
    return { result: canceled ? "lost" : "cancelled" };
  }
  // Grace ended with debt owing: the membership ends now (grace-expiry may not have run yet this
  // hour), so no new period is charged (found by the billing simulation, docs/simulation.md).
  if (
    !isBreakFee &&
    sub.balance_owing > 0 &&
    sub.grace_period_ends_at &&
    sub.grace_period_ends_at <= now.toISOString()
  ) {
    return { result: (await cancelForNonPayment(sub, now)) ? "cancelled" : "lost" };
  }
  if (needsConsent(sub, paymentType)) {
    const { canceled } = await db()
      .transaction.write(({ payment: payments, rollup, memberMonth }) => [
        payments
          .patch(key)
          .set({
            waiting_for: "bank_consent",
            ...workKeys.hold(payment.organisation_id, payment.user_id, payment.payment_id, payment.due_on),
          })
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
          .commit(),
        ...rollupItems(
          { rollup, memberMonth },
          ...scheduledChanges(payment, { ...payment, waiting_for: "bank_consent" }),
        ),
      ])
      .go();
    return { result: canceled ? "lost" : "held" };
  }
  const type = paymentType?.type ?? (sub.payment_method === "pif" ? "stripe_card" : sub.payment_method);
  // Credit ahead from a manual payment (docs/billing.md "Manual payments") pays this one first: the
  // amount left is what is charged (and surcharged); the credit spent is taken off the subscription
  // in the same transaction, conditional on the balance read, so it is never spent twice.
  const creditHeld = payment.is_retry ? 0 : (sub.credit_balance ?? 0);
  // The gym and organisation as they are now (read for this page of the run, never kept longer).
  const [settings, gym] = await Promise.all([
    context.settingsOf(payment.organisation_id),
    context.gymOf(payment.organisation_id, payment.gym_id),
  ]);
  const credit_used = creditToSpend(payment.amount, creditHeld, (rest) =>
    surchargeOfCharge(type, rest, settings, gym),
  );
  const amount = payment.amount - credit_used;
  const surcharge = surchargeOfCharge(type, amount, settings, gym);
  const claimedAt = now.toISOString();
  // Nothing left to charge (credit paid it, or a $0.00 period): sent at once, no provider call
  // (a provider refuses a charge of $0.00; docs/billing.md "Prices below the card minimum").
  const paidByCredit = amount === 0;
  const claim = paidByCredit
    ? {
        status: "sent" as const,
        type,
        payment_type_id: paymentType?.payment_type_id ?? payment.payment_type_id,
        amount,
        credit_used,
        surcharge: 0,
        claimed_at: claimedAt,
        settled_at: claimedAt,
      }
    : {
        status: "pending_request" as const,
        type,
        payment_type_id: paymentType?.payment_type_id ?? payment.payment_type_id,
        amount,
        credit_used,
        surcharge,
        claimed_at: claimedAt,
        idempotency_key: idempotencyKeyOf(payment.payment_id),
        attempts: (payment.attempts ?? 0) + 1,
        ...workKeys.inflight(payment.payment_id, claimedAt),
      };
  const claimed: PaymentRecord = { ...payment, ...claim, version: payment.version + 1 } as PaymentRecord;
  const subKey = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };

  const next =
    payment.charge_index !== undefined
      ? chargeAfterOf(sub, {
          index: payment.charge_index,
          period_end: civil(payment.period_end_at, payment.due_on),
        })
      : null;
  const nextRecord: PaymentRecord | null = next
    ? newPayment("scheduled", {
        sub,
        type,
        payment_type_id: sub.payment_type_id,
        gym: sub.gym_id === payment.gym_id ? gym : await context.gymOf(sub.organisation_id, sub.gym_id),
        settings,
        charge: next,
      })
    : null;

  // What was due: counted once, by the claim (its condition on `upcoming` makes a re-run count nothing).
  const expected = payment.is_retry
    ? []
    : [paymentRollup(payment, sub, payment.due_on, { expected: payment.amount, expected_count: 1 })];
  // No longer to be charged ahead; the next payment, when this claim creates it, is (below).
  const scheduled = scheduledChanges(payment, claimed);
  // The credit spent is taken off with ADD, on the condition that that much is still held: a
  // manual payment adding credit meanwhile is kept (a SET of the balance read would undo it), and
  // two claims cannot both spend the same credit (docs/billing.md "Manual payments").
  const withSpend = <P extends { add: (v: { credit_balance: number }) => P }>(patch: P): P =>
    credit_used > 0 ? patch.add({ credit_balance: -credit_used }) : patch;
  // The first payment paid at the claim (a $0.00 period, or credit): the membership is no longer
  // upcoming, as a settled first payment makes it (settle-paid.ts).
  const firstPaid =
    paidByCredit &&
    Boolean(sub.upcoming_state) &&
    sub.first_payment_id === payment.payment_id &&
    (payment.charge_index === -1 || payment.charge_index === 0);
  const withFirstPaid = <P extends { remove: (v: ["upcoming_state"]) => P }>(patch: P): P =>
    firstPaid ? patch.remove(["upcoming_state"]) : patch;
  // The subscription is already past this payment (its next one planned by an earlier claim of a
  // payment of the same period): checked, not advanced again, in the claim's transaction.
  const pastIt = Boolean(
    next &&
      sub.upcoming_payment_id &&
      sub.last_charge_index !== undefined &&
      sub.last_charge_index >= next.index,
  );
  if (nextRecord) await notePaymentMonths([nextRecord]);
  await racePoint("claim:read", sub.subscription_id);
  const first = await db()
    .transaction.write(({ payment: payments, subscription, rollup, memberMonth }) => [
      paidByCredit
        ? payments
            .patch(key)
            .set(claim)
            .remove(["work_key", "work_sort"])
            .add({ version: 1 })
            .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
            .commit()
        : payments
            .patch(key)
            .set(claim)
            .add({ version: 1 })
            .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
            .commit(),
      ...(next && pastIt
        ? [
            credit_used > 0
              ? subscription
                  .patch(subKey)
                  .add({ credit_balance: -credit_used })
                  .where(
                    (a, op) =>
                      `${op.gte(a.last_charge_index, next.index)} AND ${op.gte(a.credit_balance, credit_used)}`,
                  )
                  .commit()
              : subscription
                  .check(subKey)
                  .where((a, op) => op.gte(a.last_charge_index, next.index))
                  .commit(),
          ]
        : nextRecord && next
          ? [
              payments.create(nextRecord).commit(),
              withSpend(
                withFirstPaid(
                  subscription.patch(subKey).set({
                    last_charge_index: next.index,
                    last_period_end: next.period_end,
                    upcoming_payment_id: nextRecord.payment_id,
                    current_period_start: payment.period_start_at,
                    current_period_end: payment.period_end_at,
                    ...(firstPaid ? { latest_payment_id: payment.payment_id } : {}),
                  }),
                ),
              )
                .where((a, op) => {
                  // The next payment is planned from the facts read: only while they are the facts
                  // (a cancellation or pause committed meanwhile changes the version; issue 34).
                  const ahead = `(${op.notExists(a.last_charge_index)} OR ${op.lt(a.last_charge_index, next.index)}) AND ${op.eq(a.version, sub.version)}`;
                  return credit_used > 0 ? `${ahead} AND ${op.gte(a.credit_balance, credit_used)}` : ahead;
                })
                .commit(),
            ]
          : credit_used > 0
            ? [
                subscription
                  .patch(subKey)
                  .add({ credit_balance: -credit_used })
                  .where((a, op) => op.gte(a.credit_balance, credit_used))
                  .commit(),
              ]
            : []),
      ...rollupItems(
        { rollup, memberMonth },
        ...expected,
        ...scheduled,
        ...(nextRecord && next && !pastIt ? scheduledChanges(null, nextRecord) : []),
      ),
    ])
    .go();
  if (!first.canceled) return { result: "claimed", claimed: paidByCredit ? undefined : claimed };
  const reasons = (first.data ?? []) as CancellationReason[];
  // The payment was claimed or changed by someone else first: theirs.
  if (reasons[0]?.code === "ConditionalCheckFailed") return { result: "lost" };
  // Nothing was written (a transaction is all or nothing). A conflict with another writer (on the
  // subscription, or a counter row every claim of the day writes), or a subscription changed since
  // it was read: the whole claim is tried again, after a jittered wait when it collided, from the
  // subscription as it is now, so the next payment is planned from the facts in force. Never the
  // claim alone: a claim without its next payment would end the member's billing (issue 39).
  if (attempt + 1 >= CLAIM_ATTEMPTS) {
    log.warn("claim cancelled on every try: the next pass claims it", {
      payment_id: payment.payment_id,
      reasons: reasons.map((r) => r.code ?? "None").join(","),
    });
    return { result: "lost", again: true };
  }
  if (cancelledTransiently(reasons)) await retryWait(attempt);
  const fresh = await findSubscription(sub.organisation_id, sub.subscription_id);
  return claimOne(payment, fresh ?? undefined, paymentType, now, context, attempt + 1);
}

/** Passes a run makes for claims left to it by conflicts alone (the next run takes any still left). */
const CONFLICT_PASSES = 3;

/** Passes of one billing run at most (each pass claims the periods the previous one planned). */
export const MAX_CATCH_UP_PASSES = 64;

/**
 * billing-run: claim the business date's due payments, and every earlier one a missed run left.
 * Claiming a payment plans the next one; when that one is due too (the schedule did not run for
 * some days) the next pass of the same run claims it, so one run catches up every period that fell
 * due, in order (the next exists only once the one before is claimed), each once (the claim is
 * conditional). A pass that claims nothing ends the run.
 */
export async function billingRun(now: Date, options: JobOptions = {}) {
  const queue = options.queue ?? chargeQueue();
  const today = aucklandDate(now);
  const summary = { due: 0, claimed: 0, lost: 0, held: 0, cancelled: 0, skipped: 0 };
  const seen = new Set<string>();
  for (let pass = 0; pass < MAX_CATCH_UP_PASSES; pass++) {
    const claimedBefore = summary.claimed;
    let again = 0;
    for await (const page of workPages("due", `${today}#~`)) {
      for (const p of page) seen.add(p.payment_id);
      summary.due = seen.size;
      // Settings and gyms read for this page (fresh: never a copy from an earlier page or run).
      const context = batchContext();
      const subs = await findSubscriptions(
        page
          .filter((p) => p.subscription_id)
          .map((p) => ({ organisation_id: p.organisation_id, subscription_id: p.subscription_id! })),
      );
      const types = await findPaymentTypes(
        page.flatMap((p) => {
          const sub = p.subscription_id ? subs.get(p.subscription_id) : undefined;
          const id = sub?.payment_type_id ?? p.payment_type_id;
          return id ? [{ organisation_id: p.organisation_id, user_id: p.user_id, payment_type_id: id }] : [];
        }),
      );
      const messages: ChargeMessage[] = [];
      await eachLimited(page, 16, async (payment) => {
        const sub = payment.subscription_id ? subs.get(payment.subscription_id) : undefined;
        const typeId = sub?.payment_type_id ?? payment.payment_type_id;
        const paymentType = typeId ? types.get(typeId) : undefined;
        try {
          const { result, claimed, again: retry } = await claimOne(payment, sub, paymentType, now, context);
          summary[result] += 1;
          if (retry) again += 1;
          if (claimed)
            messages.push({
              organisation_id: claimed.organisation_id,
              payment_id: claimed.payment_id,
              snapshot: claimed,
              paymentType,
            });
        } catch (error) {
          summary.skipped += 1;
          log.error("claim failed", { payment_id: payment.payment_id, error: (error as Error).message });
        }
      });
      if (messages.length) await queue.send(messages);
      options.onProgress?.(summary.due, "due payments");
    }
    // A pass that claimed nothing ends the run, unless a claim was left to it by repeated conflicts.
    if (summary.claimed === claimedBefore && (again === 0 || pass + 1 >= CONFLICT_PASSES)) break;
    // Claims left by repeated conflicts are taken again after a wait longer than the last retry's,
    // not back to back with it (they would meet the same writer in step).
    if (again > 0) await retryWait(CLAIM_ATTEMPTS);
    if (pass === MAX_CATCH_UP_PASSES - 1) log.warn("billing run stopped catching up", { passes: pass + 1 });
  }
  if (options.wait !== false) await queue.drain();
  return summary;
}
