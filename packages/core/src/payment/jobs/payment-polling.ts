/**
 * payment-polling (jobs/schedule.ts): settle in-flight payments no webhook settled; re-drive
 * claimed payments whose charge was never recorded; flag the ones that stay unsettled.
 * Idempotent: every change is a conditional write.
 */

import { db } from "../../db/service";
import { appFor } from "../../gym/akahu-app";
import { log } from "../../log";
import { memberAkahuConnection } from "../../payment-type/bank-connection";
import { bankPaymentCode } from "../charge";
import { gymOf } from "../context";
import { bankStatus, cardStatus, findBankPaymentFor } from "../providers";
import { type ChargeMessage, chargeQueue } from "../queue";
import { applyOutcome } from "../settle";
import { type PaymentRecord, workPages } from "../store";
import { eachLimited, type JobOptions } from "./options";

/** How long a claimed payment may go without a recorded provider answer before it is re-driven. */
export const RECOVERY_AFTER_MS = 10 * 60 * 1000;
/** Polls of an unsettled payment before it is flagged for staff (it is still polled after). */
export const MAX_POLLS = 12;

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
