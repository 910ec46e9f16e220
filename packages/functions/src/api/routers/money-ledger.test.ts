/**
 * Issue 22, from outside: the debt a manual payment pays off, the gym's card surcharge override
 * and a billing run catching up after the schedule did not run (docs/billing.md "Dunning → Debt",
 * "Card surcharge", "Catching up"). Staff and members act over HTTP; the business clock, the jobs
 * and the simulated providers are driven in-process, as the simulation does.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach } from "../../../../../tests/support/ledger";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  charges as chargesOf,
  core,
  join as joinAs,
  memberOf,
  runJob,
} from "../../../../../tests/support/money-api";

const api = useTestApi();
checkLedgerAfterEach();
let world: MoneyWorld;
let admin: HttpClient;

const run = (job: "billing-run" | "payment-retries" | "grace-expiry") => runJob(job);
const addPrice = (input: Parameters<typeof addWorldPrice>[1]) => addWorldPrice(world, input);
/** A member with a saved card, signed in on the join site's API. */
const cardMember = (card: string) =>
  memberOf(world, api.url, { prefix: "ledger", name: (n) => `Ledger Member ${n}`, card });
const join = (member: { client: HttpClient }, priceId: string) => joinAs(world, member.client, priceId);
/** What the simulated Stripe was asked to take for a member's subscription, in order. */
const charges = async (subscriptionId: string) => (await chargesOf(subscriptionId)).tried;

beforeAll(async () => {
  world = await moneyWorld({ name: "Ledger Gyms" });
  admin = await adminOf(world, api.url, "ledger-admin@example.nz");
});

beforeEach(async () => {
  const { resetSimulatedProviders } = await core();
  resetSimulatedProviders();
});

describe("debt: a manual payment is not collected again (issue 22, defect 1)", () => {
  it("failed $85.01 and its retry, manual $85.01, failed $60.01: retries charge $60.01 + surcharge and $60.01 is owing", async () => {
    await at("2027-01-31");
    const priceId = await addPrice({ amount: 6001, billing_frequency: "monthly", joining_fee: 2500 });
    const member = await cardMember("4000000000009995"); // soft decline: insufficient funds
    const sub = await join(member, priceId);
    expect(sub.first_payment.amount).toBe(8501);

    await run("billing-run"); // 31 Jan: $85.01 fails
    await at("2027-02-01");
    await run("payment-retries"); // the retry of 1 Feb fails too
    let read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data.balance_owing).toBe(8501);

    // Staff take the balance owing at the desk.
    await at("2027-02-02");
    const manual = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: read.body.data.balance_owing,
      payment_method: "eftpos",
    });
    expect(manual.status).toBe(200);
    expect(manual.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0, credit_balance: 0 });

    await at("2027-02-28");
    await run("billing-run"); // the next period, $60.01, fails
    read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 6001, periods_owing: 1 });

    for (const day of ["2027-03-01", "2027-03-03", "2027-03-05"]) {
      await at(day);
      await run("payment-retries");
    }
    // 2.5 % + 30¢ of $60.01 = $1.80: every retry asks for $61.81, never the $85.01 paid at the desk again.
    expect(await charges(sub.id)).toEqual([8501 + 243, 8501 + 243, 6001 + 180, 6181, 6181, 6181]);
    read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 6001, periods_owing: 1 });

    // credit_balance is part of the answer (docs/billing.md "Manual payments"): $100 pays $60.01, $39.99 ahead.
    const more = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 10000,
      payment_method: "cash",
    });
    expect(more.status).toBe(200);
    expect(more.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0, credit_balance: 3999 });
  });
});

describe("card surcharge: the gym's override, read when charging (issue 22, defect 2)", () => {
  it("members who join after the override is set through the API are quoted and charged at it; a change applies to the next charge at once", async () => {
    await at("2027-04-06");
    const priceId = await addPrice({ amount: 5791, billing_frequency: "monthly" });
    // One member joins before the override: the gym is read (and was kept for 30 s before the fix).
    const early = await join(await cardMember("4242424242424242"), priceId);
    expect(early.first_payment.surcharge).toBe(175); // 2.5 % + 30¢ of $57.91

    const set = await admin.put(`/api/gyms/${world.gym_id}`, {
      name: world.gym_name,
      card_surcharge_basis_points: 175,
      card_surcharge_fixed_cents: 20,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    const joined = [];
    for (let i = 0; i < 3; i++) joined.push(await join(await cardMember("4242424242424242"), priceId));
    for (const sub of joined) {
      expect(sub.first_payment.surcharge).toBe(121); // 1.75 % + 20¢ of $57.91
      expect(sub.upcoming_payment?.surcharge).toBe(121);
    }
    await run("billing-run");
    for (const sub of [early, ...joined]) expect(await charges(sub.id)).toEqual([5791 + 121]);

    // Changed again, then a member joins and is charged straight away: the new rate.
    const changed = await admin.put(`/api/gyms/${world.gym_id}`, {
      name: world.gym_name,
      card_surcharge_basis_points: 100,
      card_surcharge_fixed_cents: 0,
    });
    expect(changed.status).toBe(200);
    const late = await join(await cardMember("4242424242424242"), priceId);
    expect(late.first_payment.surcharge).toBe(58);
    await run("billing-run");
    expect(await charges(late.id)).toEqual([5791 + 58]);

    // Back to the organisation's rate.
    await admin.put(`/api/gyms/${world.gym_id}`, {
      name: world.gym_name,
      card_surcharge_basis_points: null,
      card_surcharge_fixed_cents: null,
    });
  });
});

describe("break fee: the gym's override, read when the cancellation makes it (issue 22)", () => {
  it("a break fee override changed through the API just after a member joined prices their cancellation at once", async () => {
    await at("2027-06-01");
    const priceId = await addPrice({
      amount: 6000,
      billing_frequency: "monthly",
      term_amount: 12,
      term_unit: "months",
    });
    const sub = await join(await cardMember("4242424242424242"), priceId); // reads the gym
    await run("billing-run");
    // Staff change the gym's break fee to 10 % (before the fix the gym read at joining was kept for 30 s).
    const set = await admin.put(`/api/gyms/${world.gym_id}`, {
      name: world.gym_name,
      break_fee_basis_points: 1000,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    await at("2027-06-10"); // after the 7 days of cooling-off
    // 11 monthly charges left of the 12-month term (1 Jul 2027 to 1 May 2028): 10 % of $660.00.
    const preview = await admin.get(`/api/subscriptions/${sub.id}/cancellation-preview`);
    expect(preview.body.data).toMatchObject({ remaining_term_value: 66000, break_fee: 6600 });
    const cancelled = await admin.post(`/api/subscriptions/${sub.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    await run("billing-run");
    // The break fee is a card charge: 2.5 % + 30¢ of $66.00 = $1.95.
    expect(await charges(sub.id)).toEqual([6000 + 180, 6600 + 195]);

    await admin.put(`/api/gyms/${world.gym_id}`, { name: world.gym_name, break_fee_basis_points: null });
  });
});

describe("catching up: one billing run after the schedule stopped (issue 22)", () => {
  it("weekly members' periods that fell due in 22 days without a run are each charged once, in order, by one run", async () => {
    await at("2027-05-03");
    const priceId = await addPrice({ amount: 2000, billing_frequency: "weekly" });
    // Several members: the next payments land in random shards of the due index (before the fix a
    // run saw a member's next payment only when it landed in a shard not yet read).
    const subs = [];
    for (let i = 0; i < 5; i++) subs.push(await join(await cardMember("4242424242424242"), priceId));
    await run("billing-run");
    for (const sub of subs) expect(await charges(sub.id)).toEqual([2000 + 80]);

    await at("2027-05-25"); // the runs of 4–24 May never happened; 10, 17 and 24 May fell due
    await run("billing-run");
    const { db } = await core();
    for (const sub of subs) {
      expect(await charges(sub.id)).toEqual([2080, 2080, 2080, 2080]);
      const { data } = await db()
        .entities.payment.query.byMember({
          organisation_id: world.organisation_id,
          user_id: await subUser(sub.id),
        })
        .go();
      const mine = data.filter((p) => p.subscription_id === sub.id);
      expect(
        mine
          .filter((p) => p.status === "sent")
          .map((p) => p.due_on)
          .sort(),
      ).toEqual(["2027-05-03", "2027-05-10", "2027-05-17", "2027-05-24"]);
      expect(mine.filter((p) => p.status === "upcoming").map((p) => p.due_on)).toEqual(["2027-05-31"]);
    }
    // Nothing is left for a second run.
    expect((await run("billing-run")).claimed).toBe(0);
    // Five members through four periods and a catch-up run: over 30 s on two busy cores.
  }, 120_000);
});

async function subUser(subscriptionId: string) {
  const { findSubscription } = await core();
  const sub = await findSubscription(world.organisation_id, subscriptionId);
  if (!sub) throw new Error("no subscription");
  return sub.user_id;
}

describe("prices below the card minimum (issue 34, item 4; docs/billing.md 'Prices below the card minimum')", () => {
  it("a $0.00 weekly period creates no charge: sent at $0.00, nothing asked of the card, no decline email, no grace", async () => {
    await at("2027-06-07");
    const free = await addPrice({ amount: 0, billing_frequency: "weekly" });
    const member = await cardMember("4242424242424242");
    const sub = await join(member, free);
    await run("billing-run");
    await at("2027-06-14");
    await run("billing-run");
    expect(await charges(sub.id)).toEqual([]);
    const read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0 });
    expect(read.body.data.grace_period_ends_at ?? null).toBeNull();
    const { subscriptionPayments } = await import("@gym/core/payment/store");
    const payments = await subscriptionPayments(world.organisation_id, member.user.user_id, sub.id);
    const sent = payments.filter((p) => p.status === "sent");
    expect(sent.map((p) => [p.amount, p.surcharge])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    const { listOutbox } = await import("@gym/core/email/port");
    const mail = await listOutbox(100, member.email);
    expect(mail.map((m) => m.subject).join(" | ")).not.toMatch(/didn.t go through|declined|failed/i);
  });

  it("credit never leaves a few cents to charge: $23.90 of credit on $24.00 charges $0.50 + surcharge and keeps $23.50 spent", async () => {
    await at("2027-06-21");
    const weekly = await addPrice({ amount: 2400, billing_frequency: "weekly" });
    const member = await cardMember("4242424242424242");
    const sub = await join(member, weekly);
    const credit = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 2390,
      payment_method: "cash",
    });
    expect(credit.body.data).toMatchObject({ credit_balance: 2390 });
    await run("billing-run");
    // $0.50 + 2.5 % + 30¢ = $0.81 (before: $0.10 + 30¢ = $0.40, declined by the card's minimum).
    expect(await charges(sub.id)).toEqual([81]);
    const read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 0, credit_balance: 40 });
  });
});
