/**
 * Transaction conflicts on the money path (issue 39): DynamoDB cancels a transaction that meets
 * another on one item; the claim and the settlement retry the whole transaction (with jittered
 * backoff) or answer so that a later pass takes it, and never write half of it. The conflicts are
 * injected through the DynamoDB client (tests/support/transaction-conflicts.ts).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { checkLedgerAfterEach } from "../../../../tests/support/ledger";
import {
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../tests/support/money";
import {
  injectTransactionConflicts,
  itemOf,
  restoreTransactions,
} from "../../../../tests/support/transaction-conflicts";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { listOutbox } from "../email/port";
import { runJob } from "../jobs/run";
import { clearRecentMetrics, metricNames, recentMetrics } from "../metrics";
import {
  resetSimulatedProviders,
  setSimulatedChaos,
  settleSimulatedNow,
  simulatedLedger,
} from "../simulators/simulation";
import { findSubscription } from "../subscription/store";
import { cancelForNonPayment } from "./dunning/cancel-for-non-payment";
import { billingRun } from "./jobs/billing-run";
import { applyOutcome } from "./settle";
import { findPayment, type PaymentRecord } from "./store";

useTestApi();
checkLedgerAfterEach();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");

let world: MoneyWorld;

beforeAll(async () => {
  world = await moneyWorld();
});

beforeEach(async () => {
  resetSimulatedProviders();
  clearRecentMetrics();
  await setBusinessClock(START);
});

afterEach(() => restoreTransactions());

async function member(name: string) {
  const user = await addMember(world, name);
  await addCard(world, user, "4242424242424242");
  const { subscription, first_payment } = await subscribeMember(world, user);
  return { user, subscription, payment: first_payment };
}

const chargesOf = (p: PaymentRecord) =>
  simulatedLedger().filter((e) => e.idempotency_key === `payment-${p.payment_id}`);

/** The schedule goes on: one charge, the next payment upcoming, the subscription advanced to it. */
async function expectScheduleGoesOn(m: Awaited<ReturnType<typeof member>>) {
  expect(chargesOf(m.payment)).toHaveLength(1);
  const { data } = await db()
    .entities.payment.query.byMember({ organisation_id: world.organisation_id, user_id: m.user.user_id })
    .go();
  const upcoming = data.filter((p) => p.status === "upcoming");
  expect(upcoming).toHaveLength(1);
  const sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
  expect(sub?.upcoming_payment_id).toBe(upcoming[0].payment_id);
  expect(sub?.last_charge_index).toBe(upcoming[0].charge_index);
  expect(upcoming[0].charge_index).toBe((m.payment.charge_index ?? 0) + 1);
}

describe("a claim meets a transaction conflict", () => {
  it("on the organisation's rollup row: the whole claim is tried again, the next payment planned, one charge", async () => {
    const m = await member("Rory Rollup");
    const conflicts = injectTransactionConflicts(itemOf("rollup"), { times: 2 });
    const summary = await billingRun(START);
    expect(conflicts.injected).toBe(2);
    expect(summary.claimed).toBe(1);
    await settleSimulatedNow();
    expect((await findPayment(world.organisation_id, m.payment.payment_id))?.status).toBe("sent");
    await expectScheduleGoesOn(m);
  });

  it("on the subscription: the whole claim is tried again (never the claim alone), one charge", async () => {
    const m = await member("Sasha Subscription");
    const conflicts = injectTransactionConflicts(itemOf("subscription", m.subscription.subscription_id), {
      times: 1,
    });
    await billingRun(START);
    expect(conflicts.injected).toBe(1);
    await settleSimulatedNow();
    await expectScheduleGoesOn(m);
  });

  it("conflicts that outlast the retries: the claim is lost (nothing written), and the next run claims it whole", async () => {
    const m = await member("Lee Lost");
    const conflicts = injectTransactionConflicts(itemOf("subscription", m.subscription.subscription_id), {
      times: Number.POSITIVE_INFINITY,
    });
    const first = await billingRun(START);
    conflicts.restore();
    expect(first.claimed).toBe(0);
    expect(first.lost).toBeGreaterThanOrEqual(1);
    const still = await findPayment(world.organisation_id, m.payment.payment_id);
    expect(still?.status).toBe("upcoming");
    expect(chargesOf(m.payment)).toHaveLength(0);
    // The retries waited between them (jittered backoff), not back to back.
    const gaps = conflicts.at.slice(1).map((t, i) => t - conflicts.at[i]);
    expect(gaps.every((gap) => gap >= 20)).toBe(true);
    expect((await billingRun(START)).claimed).toBe(1);
    await settleSimulatedNow();
    await expectScheduleGoesOn(m);
  });
});

describe("a settlement meets a transaction conflict", () => {
  async function claimed(name: string) {
    const m = await member(name);
    // Claimed and charged, the provider's final answer not yet applied (the simulated provider holds it).
    setSimulatedChaos({ settleDelayMs: 600_000 });
    await billingRun(START);
    const payment = await findPayment(world.organisation_id, m.payment.payment_id);
    if (!payment) throw new Error("payment missing");
    expect(payment.status).toBe("pending_request");
    return { m, payment };
  }

  it("retries with backoff until it settles", async () => {
    const { m, payment } = await claimed("Sam Settle");
    const conflicts = injectTransactionConflicts(itemOf("subscription", m.subscription.subscription_id), {
      times: 3,
    });
    const answer = await applyOutcome(payment, {
      state: "succeeded",
      providerId: payment.stripe_id ?? "none",
    });
    expect(conflicts.injected).toBe(3);
    const gaps = conflicts.at.slice(1).map((t, i) => t - conflicts.at[i]);
    expect(gaps, String(gaps)).toEqual(gaps.map((gap) => Math.max(gap, 20)));
    expect(answer).toBe("settled");
  });

  it("conflicts that outlast the retries are never silent: answered deferred, counted by a metric, still in flight for polling", async () => {
    const { m, payment } = await claimed("Pat Pending");
    injectTransactionConflicts(itemOf("subscription", m.subscription.subscription_id), {
      times: Number.POSITIVE_INFINITY,
    });
    const answer = await applyOutcome(payment, {
      state: "succeeded",
      providerId: payment.stripe_id ?? "none",
    });
    restoreTransactions();
    expect(answer).toBe("deferred");
    const deferred = recentMetrics().filter((e) => metricNames.SettlementsDeferred in e.emf);
    expect(deferred).toHaveLength(1);
    const still = await findPayment(world.organisation_id, payment.payment_id);
    expect(still?.status).toBe("pending_request");
    expect(still?.work_key).toBeDefined();
  });
});

describe("the daily check of the schedule", () => {
  it("finds a live subscription left without an upcoming payment (as a half-written claim left it) and alarms", async () => {
    const healthy = await member("Hana Healthy");
    const stopped = await member("Stevie Stopped");
    await billingRun(START);
    await settleSimulatedNow();
    // What the claim written alone used to leave: the payment claimed, no next payment, the
    // subscription not advanced.
    const sub = await findSubscription(world.organisation_id, stopped.subscription.subscription_id);
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
      .set({
        upcoming_payment_id: stopped.payment.payment_id,
        last_charge_index: stopped.payment.charge_index,
        last_period_end: stopped.subscription.last_period_end,
      })
      .go();
    clearRecentMetrics();
    const { summary } = await runJob("reconciliation", new Date(START.getTime() + 86_400_000));
    expect(summary.unscheduled).toBe(1);
    const alarmed = recentMetrics().find((e) => metricNames.SubscriptionsUnscheduled in e.emf);
    expect(alarmed?.emf[metricNames.SubscriptionsUnscheduled]).toBe(1);
    expect(healthy.subscription.subscription_id).not.toBe(sub.subscription_id);
  });
});

describe("a cancellation for non-payment meets a transaction conflict", () => {
  it("on the upcoming payment: the membership and that payment end together (tried again whole), never the membership alone", async () => {
    const user = await addMember(world, "Grace Conflict");
    await addCard(world, user, "4000000000009995");
    const { subscription } = await subscribeMember(world, user);
    await billingRun(START);
    await settleSimulatedNow();
    const owing = await findSubscription(world.organisation_id, subscription.subscription_id);
    if (!owing?.upcoming_payment_id || !(owing.balance_owing > 0))
      throw new Error("not in grace with a next payment");
    await setBusinessClock(new Date(START.getTime() + 14 * 86_400_000));
    const conflicts = injectTransactionConflicts(itemOf("payment", owing.upcoming_payment_id));
    await runJob("grace-expiry");
    expect(conflicts.injected).toBe(1);

    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.cancellation_reasons).toEqual(["failed_payments"]);
    // No payment left to fall due on a membership that has ended, and none named as its next.
    expect(sub?.upcoming_payment_id).toBeUndefined();
    expect((await findPayment(world.organisation_id, owing.upcoming_payment_id))?.status).toBe("cancelled");
  });
});

describe("two cancellations for non-payment of one membership at the same instant (grace-expiry and the billing run both cancel)", () => {
  it("one cancellation: the membership and its upcoming payment once, one email", async () => {
    const user = await addMember(world, "Twin Cancel");
    await addCard(world, user, "4000000000009995");
    const { subscription } = await subscribeMember(world, user);
    await billingRun(START);
    await settleSimulatedNow();
    await setBusinessClock(new Date(START.getTime() + 14 * 86_400_000));
    const owing = await findSubscription(world.organisation_id, subscription.subscription_id);
    if (!owing?.upcoming_payment_id) throw new Error("no upcoming payment");

    // The same subscription as each read it, cancelled by both at once.
    const now = new Date(START.getTime() + 14 * 86_400_000);
    const results = await Promise.all([cancelForNonPayment(owing, now), cancelForNonPayment(owing, now)]);
    expect(results.filter(Boolean)).toHaveLength(1);

    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.cancellation_reasons).toEqual(["failed_payments"]);
    expect(sub?.upcoming_payment_id).toBeUndefined();
    expect((await findPayment(world.organisation_id, owing.upcoming_payment_id))?.status).toBe("cancelled");
    const mails = (await listOutbox(100, user.email)).filter((m) =>
      /membership has been cancelled/.test(m.subject),
    );
    expect(mails).toHaveLength(1);
  });
});
