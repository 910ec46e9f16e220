/**
 * The daily check of the schedule sweeps every live subscription (issue 39; docs/billing.md "The
 * schedule never stops"), not only those whose payments that day's reconciliation reads: a live
 * subscription whose billing stopped with no payment activity that day is found too.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import {
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { runJob } from "../jobs/run";
import { clearRecentMetrics, metricNames, recentMetrics } from "../metrics";
import { resetSimulatedProviders, settleSimulatedNow } from "../simulators/simulation";
import { findSubscription } from "../subscription/store";
import { billingRun } from "./jobs/billing-run";

useTestApi();
const DAY = 86_400_000;
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");
let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld({ name: "Schedule Check Gyms" });
});

beforeEach(async () => {
  resetSimulatedProviders();
  await setBusinessClock(START);
});

async function member(name: string) {
  const user = await addMember(world, name);
  await addCard(world, user, "4242424242424242");
  return subscribeMember(world, user);
}

describe("the daily check of the schedule", () => {
  it("finds a live subscription with no upcoming payment and no payment activity that day", async () => {
    const healthy = await member("Hemi Healthy");
    const quiet = await member("Quinn Quiet");
    await billingRun(START);
    await settleSimulatedNow();
    // The day after: reconciliation checks the settled charges; every schedule is fine.
    const first = await runJob("reconciliation", new Date(START.getTime() + DAY));
    expect(first.summary.unscheduled).toBe(0);
    expect(first.summary.schedules_swept).toBeGreaterThanOrEqual(2);

    // Then Quinn's upcoming payment is lost (what a half-written claim or a stray delete leaves),
    // with nothing to reconcile that day.
    const sub = await findSubscription(world.organisation_id, quiet.subscription.subscription_id);
    if (!sub?.upcoming_payment_id) throw new Error("no upcoming payment");
    await db()
      .entities.payment.delete({
        organisation_id: world.organisation_id,
        payment_id: sub.upcoming_payment_id,
      })
      .go();
    await db()
      .entities.subscription.patch({
        organisation_id: world.organisation_id,
        subscription_id: sub.subscription_id,
      })
      .remove(["upcoming_payment_id"])
      .go();

    clearRecentMetrics();
    const { summary } = await runJob("reconciliation", new Date(START.getTime() + 2 * DAY));
    expect(summary.checked).toBe(0);
    expect(summary.unscheduled).toBe(1);
    const alarmed = recentMetrics().find((e) => metricNames.SubscriptionsUnscheduled in e.emf);
    expect(alarmed?.emf[metricNames.SubscriptionsUnscheduled]).toBe(1);
    expect(healthy.subscription.subscription_id).not.toBe(sub.subscription_id);
  });

  it("a subscription whose cancellation is in effect leaves the schedule index, and is not reported", async () => {
    const leaving = await member("Lee Leaving");
    const at = new Date(START.getTime() + 3 * DAY).toISOString();
    await db()
      .entities.subscription.patch({
        organisation_id: world.organisation_id,
        subscription_id: leaving.subscription.subscription_id,
      })
      .set({ cancelled_at: at, cancellation_effective_at: at })
      .remove(["upcoming_payment_id"])
      .go();
    const { summary } = await runJob("reconciliation", new Date(START.getTime() + 4 * DAY));
    expect(summary.schedules_ended).toBeGreaterThanOrEqual(1);
    const after = await findSubscription(world.organisation_id, leaving.subscription.subscription_id);
    expect(after?.schedule_key).toBeUndefined();
  });
});
