/**
 * grace-expiry (jobs/schedule.ts): final notice two days before grace ends; cancel when it ends
 * with debt owing (cancel-for-non-payment.ts). Idempotent: every change is a conditional write.
 */

import { addDays, aucklandDate, startOfAucklandDay } from "../../billing/calendar";
import { db } from "../../db/service";
import { emailSender } from "../../email/port";
import { findSubscription } from "../../subscription/store";
import { memberRecipient } from "../../user/recipient";
import { finalNoticeEmail } from "../emails";
import { eachLimited, type JobOptions } from "../jobs/options";
import { cancelForNonPayment } from "./cancel-for-non-payment";
import { dunningPages } from "./store";

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
          const to = await memberRecipient(sub.user_id, sub);
          await emailSender().send(
            finalNoticeEmail({
              to: to.email,
              name: to.name,
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
