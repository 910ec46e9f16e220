/**
 * The money metrics from the real code path (docs/operations.md): a billing run against DynamoDB
 * Local and the simulated Stripe emits its heartbeat and counts; each settlement (by Stripe's
 * webhook) its outcome and decline code, and each webhook its receipt.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import {
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import { setBusinessClock } from "../clock";
import { runJob } from "../jobs/run";
import { clearRecentMetrics, recentMetrics } from "../metrics";
import { resetSimulatedProviders, setSimulatedChaos, settleSimulatedNow } from "../simulators/simulation";

useTestApi();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");
let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld({ name: "Metrics Gyms" });
});

describe("money metrics", () => {
  it("a billing run: JobRuns and its counts; then one Settlements per payment by outcome, Declines by code, WebhookReceipts", async () => {
    resetSimulatedProviders();
    // Charges settle only when the test says (settleSimulatedNow), not on the provider's own timer
    // while a slow billing run is still going.
    setSimulatedChaos({ settleDelayMs: 60 * 60_000 });
    await setBusinessClock(START);
    for (const [name, card] of [
      ["Pat Pays", "4242424242424242"],
      ["Dee Declined", "4000000000000341"],
      ["Lou Lost", "4000000000009987"],
    ]) {
      const user = await addMember(world, name);
      await addCard(world, user, card);
      await subscribeMember(world, user);
    }
    clearRecentMetrics();

    const result = await runJob("billing-run");
    expect(result.summary).toMatchObject({ due: 3, claimed: 3 });

    const emfs = recentMetrics().map((m) => m.emf);
    const run = emfs.find((e) => "JobRuns" in e);
    expect(run).toMatchObject({
      Job: "billing-run",
      JobRuns: 1,
      JobErrors: 0,
      Due: 3,
      Claimed: 3,
      DueNotClaimed: 0,
    });
    const requestId = run?.request_id;
    expect(requestId).toEqual(expect.any(String));

    // The simulated Stripe answers every card charge "processing"; each settles when Stripe does,
    // by its webhook through the API (as in AWS).
    expect(emfs.filter((e) => "Settlements" in e)).toEqual([]);
    clearRecentMetrics();
    await settleSimulatedNow();
    const after = recentMetrics().map((m) => m.emf);
    const settled = after.filter((e) => "Settlements" in e);
    expect(settled.map((e) => e.Outcome).sort()).toEqual(["declined", "failed", "succeeded"]);
    for (const e of settled) {
      expect(e).toMatchObject({
        Provider: "stripe",
        source: "webhook",
        organisation_id: world.organisation_id,
        request_id: expect.any(String),
      });
    }
    const declines = after.filter((e) => "Declines" in e);
    expect(declines.map((e) => [e.outcome, e.DeclineCode]).sort()).toEqual([
      ["declined", "lost_card"],
      ["failed", "generic_decline"],
    ]);
    const receipts = after.filter((e) => "WebhookReceipts" in e);
    // One per Stripe event delivered (a payment may have more than one event).
    expect(receipts.length).toBeGreaterThanOrEqual(3);
    for (const e of receipts) expect(e).toMatchObject({ Provider: "stripe", Outcome: "accepted" });
  });
});
