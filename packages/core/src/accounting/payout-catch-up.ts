/**
 * The `payout-catch-up` job (docs/accounting.md "Payouts"): a payout whose `payout.paid` never
 * arrived (Stripe gives up on an undelivered event after three days) is still recorded. For each
 * connected gym (the `stripe_account` provider links), Stripe's payouts arriving in the last
 * CATCH_UP_DAYS are listed on the account (`payouts.list`); each paid one not recorded yet is
 * recorded through the event's own path (`recordStripePayout`: read from Stripe, conditional create),
 * so running it twice, or alongside the event, records each payout once.
 */
import { addDays, aucklandDate, startOfAucklandDay } from "../billing/calendar";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { log } from "../log";
import { gymOf } from "../payment/context";
import { eachLimited } from "../payment/jobs/options";
import { stripeProvider } from "../providers/stripe/index";
import { recordStripePayout } from "./payout-events";

/** How far back the job looks: Stripe's three days of retries, and a week of margin for the job itself. */
export const CATCH_UP_DAYS = 10;

export interface PayoutCatchUpSummary {
  accounts: number;
  payouts: number;
  recorded: number;
  refused: number;
}

export async function payoutCatchUp(now: Date): Promise<Record<string, number>> {
  const summary: PayoutCatchUpSummary = { accounts: 0, payouts: 0, recorded: 0, refused: 0 };
  const since = Math.floor(startOfAucklandDay(addDays(aucklandDate(now), -CATCH_UP_DAYS)).getTime() / 1000);
  const { data: links } = await db()
    .entities.providerLink.query.byProvider({ provider: "stripe_account" })
    .go({ pages: "all" });
  await eachLimited(links, 4, async (link) => {
    if (!link.gym_id) return;
    const gym = await gymOf(link.organisation_id, link.gym_id).catch(() => null);
    // A link left behind by a reconnection: the gym holds another account now.
    if (!gym || gym.stripe_id !== link.external_id) return;
    summary.accounts += 1;
    const paid = (await stripeProvider().listPayouts(link.external_id, since)).filter(
      (p) => p.status === "paid",
    );
    summary.payouts += paid.length;
    const stored = await getMany(
      paid.map((p) => ({
        entity: db().entities.payout,
        key: {
          organisation_id: link.organisation_id,
          arrival_date: aucklandDate(new Date(p.arrival_date * 1000)),
          payout_id: p.id,
        },
      })),
    );
    for (const [i, payout] of paid.entries()) {
      if (stored[i]) continue;
      const outcome = await recordStripePayout({
        organisationId: link.organisation_id,
        gymId: gym.gym_id,
        account: link.external_id,
        payoutId: payout.id,
        expectedAmount: payout.amount,
      });
      if (outcome === "recorded") {
        summary.recorded += 1;
        log.warn("payout recorded by the catch-up (its payout.paid never came)", {
          payout_id: payout.id,
          gym_id: gym.gym_id,
        });
      } else if (typeof outcome === "object") {
        summary.refused += 1;
        log.warn("payout not recorded by the catch-up", { payout_id: payout.id, reason: outcome.refused });
      }
    }
  });
  return { ...summary };
}
