/**
 * What settling a payment by webhook costs in DynamoDB requests (issue 27: "settlement at the
 * floor", 4; issue 39: 7 once the receipt's email and door access survive a crash; issue 36: 6,
 * the event's item written leased to the settlement), with every guarantee kept: the webhook's
 * event id claimed and its call logged, the payment moved to paid conditionally, the subscription's
 * counters, the rollups, the receipt issued with its number, its `payment_paid` outbox event
 * delivered inline (the email's claim, the delete) and the receipt emailed once, and a redelivery
 * of the same event changing nothing.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countDynamoRequests, measured, type RequestCount } from "../../../../tests/bench/measure";
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
import { listOutbox } from "../email/port";
import {
  flushSimulatedWebhooks,
  resetSimulatedProviders,
  setSimulatedChaos,
  settleSimulatedNow,
  simulatedDeliveries,
} from "../simulators/simulation";
import { findSubscription } from "../subscription/store";
import { billingRun } from "./jobs/billing-run";
import { findPayment } from "./store";

const api = useTestApi();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");

let world: MoneyWorld;
let counts: RequestCount;

beforeAll(async () => {
  world = await moneyWorld({ name: "Settle Floor" });
  counts = await countDynamoRequests();
  counts.counting = false;
});

beforeEach(async () => {
  resetSimulatedProviders();
  await setBusinessClock(START);
});

async function countWhile(work: () => Promise<unknown>) {
  Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
  try {
    await work();
  } finally {
    counts.counting = false;
  }
  return {
    requests: measured(counts),
    detail: JSON.stringify({ byCommand: counts.byCommand, aside: counts.aside }),
  };
}

describe("settlement by webhook", () => {
  it("a card payment's success webhook settles it in at most 6 DynamoDB requests, receipt and counters included", async () => {
    expect(api.url).toBeTruthy();
    const user = await addMember(world, "Frankie Floor");
    await addCard(world, user, "4242424242424242");
    const { subscription, first_payment } = await subscribeMember(world, user);
    setSimulatedChaos({ settleDelayMs: 3_600_000 });
    await billingRun(START);
    // The charge's own interim events (payment_intent.processing) are delivered before the count.
    await flushSimulatedWebhooks();
    const charged = await findPayment(world.organisation_id, first_payment.payment_id);
    expect(charged?.status).toBe("pending_request");
    const subBefore = await findSubscription(world.organisation_id, subscription.subscription_id);

    const settled = await countWhile(() => settleSimulatedNow());
    expect(simulatedDeliveries().filter((d) => d.provider === "stripe").length).toBeGreaterThanOrEqual(1);

    const paid = await findPayment(world.organisation_id, first_payment.payment_id);
    expect(paid?.status).toBe("sent");
    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.payments_sum).toBe((subBefore?.payments_sum ?? 0) + (paid?.amount ?? 0));
    expect(sub?.latest_payment_id).toBe(first_payment.payment_id);
    const { data: receipt } = await db()
      .entities.receipt.get({ organisation_id: world.organisation_id, payment_id: first_payment.payment_id })
      .go();
    expect(receipt?.number).toBeGreaterThan(0);
    const mails = (await listOutbox()).filter(
      (m) => m.to === user.email && /receipt|invoice/i.test(m.subject),
    );
    expect(mails).toHaveLength(1);
    const { data: calls } = await db()
      .entities.webhookCall.query.primary({ partition: world.organisation_id })
      .go();
    expect(
      calls.filter((c) => c.outcome === "accepted" && c.event_type === "payment_intent.succeeded"),
    ).toHaveLength(1);
    const { data: rollups } = await db()
      .entities.rollup.query.primary({ organisation_id: world.organisation_id, scope: world.gym_id })
      .go({ pages: "all" });
    expect(rollups.some((r) => (r as { collected?: number }).collected === paid?.amount)).toBe(true);

    // The HTTP front door's rate-limit counter and the local runtime's own requests (business
    // clock, mail outbox) are counted aside (tests/bench/measure.ts). 4 settle it (BatchGetItem, the
    // event id's claim, the receipt number's ADD, the transaction, which writes the outbox item
    // already leased to this delivery); 2 deliver its outbox event inline (the receipt email's
    // claim, the item's delete: no lease to take, 3 before).
    expect(settled.requests, settled.detail).toBeLessThanOrEqual(6);
  });

  it("a duplicate and a late redelivery of the success event change nothing: one receipt, counted once", async () => {
    const user = await addMember(world, "Dupe Late");
    await addCard(world, user, "4242424242424242");
    const { subscription, first_payment } = await subscribeMember(world, user);
    setSimulatedChaos({ settleDelayMs: 3_600_000, duplicateWebhooks: 1, lateWebhooks: 1 });
    await billingRun(START);
    await flushSimulatedWebhooks();
    const subBefore = await findSubscription(world.organisation_id, subscription.subscription_id);
    await settleSimulatedNow();
    await settleSimulatedNow(); // the late redelivery
    const paid = await findPayment(world.organisation_id, first_payment.payment_id);
    expect(paid?.status).toBe("sent");
    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.payments_sum).toBe((subBefore?.payments_sum ?? 0) + (paid?.amount ?? 0));
    const mails = (await listOutbox()).filter(
      (m) => m.to === user.email && /receipt|invoice/i.test(m.subject),
    );
    expect(mails).toHaveLength(1);
    const { data: activity } = await db()
      .entities.memberActivity.query.primary({
        organisation_id: world.organisation_id,
        user_id: user.user_id,
      })
      .go();
    expect(activity.filter((a) => a.kind === "payment_paid")).toHaveLength(1);
    const { data: calls } = await db()
      .entities.webhookCall.query.primary({ partition: world.organisation_id })
      .go({ pages: "all" });
    const succeeded = calls.filter(
      (c) => c.event_type === "payment_intent.succeeded" && c.body.includes(first_payment.payment_id),
    );
    expect(succeeded.filter((c) => c.outcome === "accepted")).toHaveLength(1);
    expect(succeeded.filter((c) => c.outcome === "duplicate").length).toBeGreaterThanOrEqual(2);
    const { data: month } = await db()
      .entities.memberMonth.get({
        organisation_id: world.organisation_id,
        gym_id: world.gym_id,
        month: "2026-12",
        user_id: user.user_id,
      })
      .go();
    expect(month?.paid).toBe(paid?.amount);
  });
});
