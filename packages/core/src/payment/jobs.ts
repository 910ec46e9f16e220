/**
 * The bodies of the money jobs (jobs/run.ts calls them; the same code runs under EventBridge and
 * the local scheduler). Each is idempotent and safe to run twice at once: every change is a
 * conditional write, and a lost race is counted, not retried blindly.
 *
 *  - billing-run: page through the due index for the business date; claim each payment
 *    (`upcoming` → `pending_request`, version checked) together with creating the next upcoming
 *    payment; hand the claimed ones to the charge queue.
 *  - payment-polling: settle in-flight payments no webhook settled; re-drive claimed payments
 *    whose charge was never recorded; flag the ones that stay unsettled.
 *  - payment-retries: charge a subscription's whole balance as one `is_retry` payment on the
 *    organisation's retry days.
 *  - grace-expiry: final notice two days before grace ends; cancel when it ends with debt owing.
 */

import { syncDoorAccess } from "../access/sync";
import { addDays, aucklandDate, startOfAucklandDay } from "../billing/calendar";
import { applyCredit } from "../billing/lifecycle";
import { db } from "../db/service";
import { emailSender } from "../email/port";
import { appFor } from "../gym/akahu-app";
import { log } from "../log";
import { adjustUniqueMemberships } from "../offering/service";
import { memberAkahuConnection } from "../payment-type/bank-connection";
import type { PaymentTypeRecord } from "../payment-type/present";
import { findPaymentTypes } from "../payment-type/service";
import { paymentRollup } from "../rollup/money";
import { cancellationChange, rollupItems } from "../rollup/writes";
import { chargeAfterOf } from "../subscription/schedule";
import { findSubscription, findSubscriptions, type SubscriptionRecord } from "../subscription/store";
import { bankPaymentCode } from "./charge";
import { type BillingContext, batchContext, gymOf, settingsOf } from "./context";
import { subscriptionDebt } from "./debt";
import { cancelledForNonPaymentEmail, finalNoticeEmail } from "./emails";
import { idempotencyKeyOf, retryPaymentId } from "./ids";
import { newPayment } from "./new-payment";
import { bankStatus, cardStatus, findBankPaymentFor } from "./providers";
import { type ChargeMessage, type ChargeQueue, chargeQueue } from "./queue";
import { applyOutcome } from "./settle";
import { type PaymentRecord, workKeys, workPages } from "./store";
import { surchargeOfCharge } from "./surcharge";
import { dunningPages } from "./work";

export interface JobOptions {
  queue?: ChargeQueue;
  onProgress?: (done: number, label?: string) => void;
  /** Local runs wait for the in-process charges so the summary includes them. */
  wait?: boolean;
}

/** How long a claimed payment may go without a recorded provider answer before it is re-driven. */
export const RECOVERY_AFTER_MS = 10 * 60 * 1000;
/** Polls of an unsettled payment before it is flagged for staff (it is still polled after). */
export const MAX_POLLS = 12;

/** Runs `fn` over items with at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  });
  await Promise.all(workers);
}

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

/**
 * Claims one due payment: conditional on `upcoming` at the version read. In the same transaction
 * the next upcoming payment is created (conditional on not existing: its id is deterministic) and
 * the subscription's billing state advanced (conditional on not being ahead already). If only the
 * next payment or the subscription was already there (a run that crashed half-way), the claim is
 * written alone.
 */
async function claimOne(
  payment: PaymentRecord,
  sub: SubscriptionRecord | undefined,
  paymentType: PaymentTypeRecord | undefined,
  now: Date,
  context: BillingContext,
): Promise<{ result: ClaimResult; claimed?: PaymentRecord }> {
  const _today = aucklandDate(now);
  const key = { organisation_id: payment.organisation_id, payment_id: payment.payment_id };
  // A break fee is due on the day its cancellation is made, so it is charged even when that is the effect date.
  const isBreakFee = (payment.meta as { kind?: string } | undefined)?.kind === "break_fee";
  if (!sub || (cancellationInEffect(sub, payment.due_on) && !isBreakFee)) {
    const { canceled } = await db()
      .transaction.write(({ payment: payments }) => [
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
      .transaction.write(({ payment: payments }) => [
        payments
          .patch(key)
          .set({
            waiting_for: "bank_consent",
            ...workKeys.hold(payment.organisation_id, payment.user_id, payment.payment_id, payment.due_on),
          })
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
          .commit(),
      ])
      .go();
    return { result: canceled ? "lost" : "held" };
  }
  const type = paymentType?.type ?? (sub.payment_method === "pif" ? "stripe_card" : sub.payment_method);
  // Credit ahead from a manual payment (docs/billing.md "Manual payments") pays this one first: the
  // amount left is what is charged (and surcharged); the credit spent is taken off the subscription
  // in the same transaction, conditional on the balance read, so it is never spent twice.
  const creditHeld = payment.is_retry ? 0 : (sub.credit_balance ?? 0);
  const { credit_used, credit_left } = applyCredit(payment.amount, creditHeld);
  const amount = payment.amount - credit_used;
  // The gym and organisation as they are now (read for this page of the run, never kept longer).
  const [settings, gym] = await Promise.all([
    context.settingsOf(payment.organisation_id),
    context.gymOf(payment.organisation_id, payment.gym_id),
  ]);
  const surcharge = surchargeOfCharge(type, amount, settings, gym);
  const claimedAt = now.toISOString();
  const paidByCredit = credit_used > 0 && amount === 0;
  const claim = paidByCredit
    ? {
        // Nothing left to charge: paid from credit, no provider call.
        status: "sent" as const,
        type,
        payment_type_id: paymentType?.payment_type_id ?? payment.payment_type_id,
        amount,
        credit_used,
        surcharge,
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
      ...(nextRecord && next
        ? [
            payments.create(nextRecord).commit(),
            subscription
              .patch(subKey)
              .set({
                last_charge_index: next.index,
                last_period_end: next.period_end,
                upcoming_payment_id: nextRecord.payment_id,
                current_period_start: payment.period_start_at,
                current_period_end: payment.period_end_at,
                ...(credit_used > 0 ? { credit_balance: credit_left } : {}),
              })
              .where((a, op) => {
                const ahead = `(${op.notExists(a.last_charge_index)} OR ${op.lt(a.last_charge_index, next.index)})`;
                return credit_used > 0 ? `${ahead} AND ${op.eq(a.credit_balance, creditHeld)}` : ahead;
              })
              .commit(),
          ]
        : credit_used > 0
          ? [
              subscription
                .patch(subKey)
                .set({ credit_balance: credit_left })
                .where((a, op) => op.eq(a.credit_balance, creditHeld))
                .commit(),
            ]
          : []),
      ...rollupItems({ rollup, memberMonth }, ...expected),
    ])
    .go();
  if (!first.canceled) return { result: "claimed", claimed: paidByCredit ? undefined : claimed };
  const reasons = (first.data ?? []) as { rejected?: boolean; code?: string }[];
  if (reasons[0]?.rejected || reasons[0]?.code === "ConditionalCheckFailed") return { result: "lost" };
  // The claim itself was not the problem: claim alone (the next payment is already there).
  const alone = await db()
    .transaction.write(({ payment: payments, subscription, rollup, memberMonth }) => [
      payments
        .patch(key)
        .set(claim)
        .add({ version: 1 })
        .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "upcoming")}`)
        .commit(),
      ...(credit_used > 0
        ? [
            subscription
              .patch(subKey)
              .set({ credit_balance: credit_left })
              .where((a, op) => op.eq(a.credit_balance, creditHeld))
              .commit(),
          ]
        : []),
      ...rollupItems({ rollup, memberMonth }, ...expected),
    ])
    .go();
  if (alone.canceled) return { result: "lost" };
  if (paidByCredit) return { result: "claimed" };
  if (
    nextRecord &&
    payment.charge_index !== undefined &&
    sub.last_charge_index !== undefined &&
    sub.last_charge_index <= payment.charge_index
  ) {
    log.warn("next payment not created", { payment_id: payment.payment_id });
  }
  return { result: "claimed", claimed };
}

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
          const { result, claimed } = await claimOne(payment, sub, paymentType, now, context);
          summary[result] += 1;
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
    if (summary.claimed === claimedBefore) break;
    if (pass === MAX_CATCH_UP_PASSES - 1) log.warn("billing run stopped catching up", { passes: pass + 1 });
  }
  if (options.wait !== false) await queue.drain();
  return summary;
}

/** payment-polling: settle what no webhook did; re-drive claims never recorded; flag the stuck. */
export async function paymentPolling(now: Date, options: JobOptions = {}) {
  const queue = options.queue ?? chargeQueue();
  const summary = { in_flight: 0, settled: 0, redriven: 0, polled: 0, flagged: 0 };
  const nowMs = now.getTime();
  for await (const page of workPages("inflight", `${now.toISOString()}#~`)) {
    summary.in_flight += page.length;
    const redrive: ChargeMessage[] = [];
    await eachLimited(page, 8, async (payment) => {
      if (payment.status !== "pending_request") return;
      const recorded = payment.charged_at && (payment.stripe_id || payment.akahu_id);
      if (!recorded) {
        const claimedAt = payment.claimed_at ? Date.parse(payment.claimed_at) : 0;
        if (nowMs - claimedAt >= RECOVERY_AFTER_MS) {
          redrive.push({ organisation_id: payment.organisation_id, payment_id: payment.payment_id });
        }
        return;
      }
      try {
        const outcome = await pollOutcome(payment);
        if (outcome.state === "succeeded" || outcome.state === "failed") {
          if ((await applyOutcome(payment, outcome, { snapshot: payment, source: "poll" })) === "settled")
            summary.settled += 1;
          return;
        }
        summary.polled += 1;
        const polls = payment.poll_count + 1;
        const flag = polls >= MAX_POLLS && !payment.error_status;
        if (flag) summary.flagged += 1;
        await db()
          .entities.payment.patch({
            organisation_id: payment.organisation_id,
            payment_id: payment.payment_id,
          })
          .set({
            poll_count: polls,
            ...(flag
              ? {
                  error_status: "unsettled",
                  error_description: `No final answer from the provider after ${polls} checks: check the payment with the provider.`,
                }
              : {}),
          })
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, payment.version)} AND ${op.eq(a.status, "pending_request")}`)
          .go()
          .catch(() => undefined);
      } catch (error) {
        log.warn("poll failed", { payment_id: payment.payment_id, error: (error as Error).message });
      }
    });
    if (redrive.length) {
      summary.redriven += redrive.length;
      await queue.send(redrive);
    }
    options.onProgress?.(summary.in_flight, "payments in flight");
  }
  if (options.wait !== false) await queue.drain();
  return summary;
}

async function pollOutcome(payment: PaymentRecord) {
  const gym = await gymOf(payment.organisation_id, payment.gym_id);
  if (payment.type === "stripe_card") {
    return cardStatus(gym.stripe_id ?? "", payment.stripe_id ?? "");
  }
  const connection = await memberAkahuConnection(payment.organisation_id, payment.user_id);
  if (!connection) return { state: "unknown" as const, message: "no bank connection" };
  const app = await appFor(payment.organisation_id, connection.gym_id);
  if (payment.akahu_id) return bankStatus(app, connection.token, payment.akahu_id);
  const since = new Date(payment.claimed_at ?? payment.created_at);
  return (
    (await findBankPaymentFor(app, connection.token, bankPaymentCode(payment.payment_id), since)) ?? {
      state: "unknown" as const,
      message: "not found at Akahu",
    }
  );
}

/**
 * Charges a subscription's whole balance as one `is_retry` payment, claimed at creation
 * (`pending_request`), and queues it. `attempt` makes the id deterministic so a double run
 * creates one. Answers the payment, or null when there is nothing to retry (or a retry is in flight).
 */
export async function retryBalance(
  sub: SubscriptionRecord,
  now: Date,
  attempt: string,
  options: { queue?: ChargeQueue; paymentType?: PaymentTypeRecord | null; advancesSchedule?: boolean } = {},
): Promise<PaymentRecord | null> {
  if (sub.balance_owing <= 0 || sub.retry_payment_id) return null;
  // The balance is what the ledger says is owing now (payment/debt.ts), not a copy kept on the
  // subscription: a manual payment staff recorded is never collected again (issue 22).
  const owed = await subscriptionDebt(sub);
  if (owed.balance_owing <= 0) return null;
  const today = aucklandDate(now);
  const paymentId = retryPaymentId(sub.subscription_id, attempt, today);
  const types = sub.payment_type_id
    ? await findPaymentTypes([
        { organisation_id: sub.organisation_id, user_id: sub.user_id, payment_type_id: sub.payment_type_id },
      ])
    : new Map<string, PaymentTypeRecord>();
  const paymentType =
    options.paymentType ?? (sub.payment_type_id ? types.get(sub.payment_type_id) : undefined) ?? null;
  if (paymentType?.status !== "active") return null;
  const [settings, gym] = await Promise.all([
    settingsOf(sub.organisation_id),
    gymOf(sub.organisation_id, sub.gym_id),
  ]);
  const record = newPayment("retry", {
    sub,
    type: paymentType.type,
    payment_type_id: paymentType.payment_type_id,
    gym,
    settings,
    payment_id: paymentId,
    amount: owed.balance_owing,
    today,
    at: now.toISOString(),
    debt: owed,
  });
  const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
  const { canceled } = await db()
    .transaction.write(({ payment, subscription, dunning }) => [
      payment.create(record).commit(),
      subscription
        .patch(key)
        .set({ retry_payment_id: paymentId, ...(options.advancesSchedule === false ? {} : {}) })
        .remove(["next_retry_on"])
        .add({ version: 1, retries_done: options.advancesSchedule === false ? 0 : 1 })
        .where((a, op) => op.eq(a.version, sub.version))
        .commit() as never,
      dunning.patch(key).remove(["retry_key", "retry_sort"]).commit() as never,
    ])
    .go();
  if (canceled) return null;
  const queue = options.queue ?? chargeQueue();
  await queue.send([
    { organisation_id: record.organisation_id, payment_id: paymentId, snapshot: record, paymentType },
  ]);
  return record;
}

/** payment-retries: the subscriptions whose retry day has come. */
export async function paymentRetries(now: Date, options: JobOptions = {}) {
  const queue = options.queue ?? chargeQueue();
  const today = aucklandDate(now);
  const summary = { due: 0, retried: 0, skipped: 0 };
  for await (const page of dunningPages("retry", today)) {
    summary.due += page.length;
    await eachLimited(page, 8, async (item) => {
      const sub = await findSubscription(item.organisation_id, item.subscription_id);
      if (!sub?.next_retry_on || sub.next_retry_on > today || sub.hard_declined || sub.cancelled_at) {
        summary.skipped += 1;
        return;
      }
      const retry = await retryBalance(sub, now, `scheduled#${sub.retries_done + 1}#${sub.next_retry_on}`, {
        queue,
      });
      if (retry) summary.retried += 1;
      else summary.skipped += 1;
    });
    options.onProgress?.(summary.due, "retries");
  }
  if (options.wait !== false) await queue.drain();
  return summary;
}

/** Days before grace ends that the final notice goes out. */
export const FINAL_NOTICE_DAYS = 2;

/** grace-expiry: final notices, and cancellation when grace ended with debt still owing. */
export async function graceExpiry(now: Date, options: JobOptions = {}) {
  const nowIso = now.toISOString();
  const noticeUpTo = startOfAucklandDay(addDays(aucklandDate(now), FINAL_NOTICE_DAYS + 1)).toISOString();
  const summary = { examined: 0, notices: 0, cancelled: 0, cleared: 0 };
  for await (const page of dunningPages("grace", noticeUpTo)) {
    summary.examined += page.length;
    await eachLimited(page, 8, async (item) => {
      const sub = await findSubscription(item.organisation_id, item.subscription_id);
      const key = { organisation_id: item.organisation_id, subscription_id: item.subscription_id };
      if (!sub || sub.balance_owing <= 0 || !sub.grace_period_ends_at || sub.cancelled_at) {
        await db().entities.dunning.delete(key).go();
        summary.cleared += 1;
        return;
      }
      if (sub.grace_period_ends_at <= nowIso) {
        if (await cancelForNonPayment(sub, now)) summary.cancelled += 1;
        return;
      }
      if (!sub.final_notice_sent_at) {
        const { canceled } = await db()
          .transaction.write(({ subscription }) => [
            subscription
              .patch(key)
              .set({ final_notice_sent_at: nowIso })
              .add({ version: 1 })
              .where((a, op) => op.eq(a.version, sub.version))
              .commit(),
          ])
          .go();
        if (!canceled) {
          summary.notices += 1;
          await emailSender().send(
            finalNoticeEmail({
              to: sub.member_email,
              name: sub.member_name,
              gym: sub.gym_name,
              gym_ref: { organisation_id: sub.organisation_id, gym_id: sub.gym_id },
              balance: sub.balance_owing,
              graceEndsAt: sub.grace_period_ends_at,
            }),
          );
        }
      }
    });
    options.onProgress?.(summary.examined, "subscriptions in grace");
  }
  return summary;
}

/** Cancels a subscription whose grace ended with debt owing; revokes door access; emails the member. */
export async function cancelForNonPayment(sub: SubscriptionRecord, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const key = { organisation_id: sub.organisation_id, subscription_id: sub.subscription_id };
  // Only what the ledger says is owing ends a membership (payment/debt.ts): a debt paid off since
  // (a manual payment, a retry) clears the grace instead.
  const owed = await subscriptionDebt(sub);
  if (owed.balance_owing <= 0) {
    await db()
      .transaction.write(({ subscription, dunning }) => [
        subscription
          .patch(key)
          .set({ balance_owing: 0, periods_owing: 0, retries_done: 0 })
          .remove(["grace_period_ends_at", "failed_at", "next_retry_on", "final_notice_sent_at"])
          .add({ version: 1 })
          .where((a, op) => op.eq(a.version, sub.version))
          .commit() as never,
        dunning.delete(key).commit() as never,
      ])
      .go();
    return false;
  }
  const upcomingId = sub.upcoming_payment_id;
  const leaving = cancellationChange(sub, aucklandDate(now), 1);
  const { canceled } = await db()
    .transaction.write(({ subscription, dunning, payment, rollup, memberMonth }) => [
      ...rollupItems({ rollup, memberMonth }, leaving),
      subscription
        .patch(key)
        .set({
          cancelled_at: at,
          cancellation_effective_at: at,
          undo_cancellation_until: at,
          cancellation_reasons: ["failed_payments"],
        })
        .remove(["next_retry_on", "upcoming_payment_id"])
        .add({ version: 1 })
        .where((a, op) => `${op.eq(a.version, sub.version)} AND ${op.notExists(a.cancelled_at)}`)
        .commit() as never,
      dunning.delete(key).commit() as never,
      ...(upcomingId
        ? [
            payment
              .patch({ organisation_id: sub.organisation_id, payment_id: upcomingId })
              .set({
                status: "cancelled",
                error_description: "The membership was cancelled for non-payment.",
              })
              .remove(["work_key", "work_sort", "waiting_for"])
              .add({ version: 1 })
              .where((a, op) => op.eq(a.status, "upcoming"))
              .commit() as never,
          ]
        : []),
    ])
    .go();
  if (canceled) {
    // The upcoming payment may already be claimed or gone: cancel the subscription alone.
    const alone = await db()
      .transaction.write(({ subscription, dunning, rollup, memberMonth }) => [
        ...rollupItems({ rollup, memberMonth }, leaving),
        subscription
          .patch(key)
          .set({
            cancelled_at: at,
            cancellation_effective_at: at,
            undo_cancellation_until: at,
            cancellation_reasons: ["failed_payments"],
          })
          .remove(["next_retry_on"])
          .add({ version: 1 })
          .where((a, op) => `${op.eq(a.version, sub.version)} AND ${op.notExists(a.cancelled_at)}`)
          .commit() as never,
        dunning.delete(key).commit() as never,
      ])
      .go();
    if (alone.canceled) return false;
  }
  try {
    await adjustUniqueMemberships(sub.organisation_id, sub.offering_id, sub.gym_id, -1);
    await syncDoorAccess(sub.organisation_id, sub.user_id);
  } catch (error) {
    log.error("door access not revoked", {
      subscription_id: sub.subscription_id,
      error: (error as Error).message,
    });
  }
  await emailSender().send(
    cancelledForNonPaymentEmail({
      to: sub.member_email,
      name: sub.member_name,
      gym: sub.gym_name,
      gym_ref: { organisation_id: sub.organisation_id, gym_id: sub.gym_id },
      balance: owed.balance_owing,
    }),
  );
  return true;
}
