/**
 * The race suite (issue 34, docs/billing.md "The ledger's invariants" and "Races the ledger
 * holds"): pairs of money-changing calls fired at the same instant, round after round, with the
 * ledger's invariants checked over the whole table after each round (tests/support/races.ts). Each
 * pair runs once with the first call held at its race point while the second runs whole, once the
 * other way round, then several more rounds fired together. Items 1–3 of the issue failed here
 * before it (credit spent twice; a transfer counted both received and paid at the desk; a price's
 * amount edited under its first subscription).
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach } from "../../../../../tests/support/ledger";
import { addCard, addMember, type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  charges,
  core,
  memberOf,
  runJob,
  settle,
} from "../../../../../tests/support/money-api";
import { race } from "../../../../../tests/support/races";

const api = useTestApi();
checkLedgerAfterEach();
let world: MoneyWorld;
let admin: HttpClient;

/** Rounds fired together after the two held rounds (the held rounds are the decisive ones). */
const TOGETHER = 8;
/** Fewer for pairs whose every round signs a member in (slower). */
const TOGETHER_SIGNED_IN = 4;

/** A race runs many rounds, each with its own member: minutes on a loaded machine. */
const RACE_TIMEOUT = 300_000;

const addPrice = (input: Parameters<typeof addWorldPrice>[1]) => addWorldPrice(world, input);

async function subscriptionRecord(id: string) {
  const { findSubscription } = await import("@gym/core/subscription/store");
  const sub = await findSubscription(world.organisation_id, id);
  if (!sub) throw new Error(`no subscription ${id}`);
  return sub;
}

async function paymentsOf(sub: { user_id: string; subscription_id: string }) {
  const { subscriptionPayments } = await import("@gym/core/payment/store");
  return subscriptionPayments(world.organisation_id, sub.user_id, sub.subscription_id);
}

let n = 0;
/** A member with a saved card (no sign-in: staff and the jobs act for them) and a membership. */
async function cardMembership(priceId: string, cards: string[] = ["4242424242424242"]) {
  const user = await addMember(world, `Ledger Racer ${++n}`);
  for (const card of cards) await addCard(world, user, card);
  const { createSubscription } = await import("@gym/core/subscription/service");
  const { subscription } = await createSubscription({
    organisation_id: world.organisation_id,
    user_id: user.user_id,
    gym_id: world.gym_id,
    price_id: priceId,
  });
  return { user, sub: subscription, id: subscription.subscription_id };
}

const deskPayment = (subscriptionId: string, amount: number, method = "eftpos") =>
  admin.post(`/api/subscriptions/${subscriptionId}/manual-payment`, { amount, payment_method: method });

beforeAll(async () => {
  world = await moneyWorld({ name: "Ledger Race Gyms" });
  admin = await adminOf(world, api.url, "ledger-races-admin@example.nz");
});

beforeEach(async () => {
  const { resetSimulatedProviders, setSimulatedChaos } = await core();
  resetSimulatedProviders();
  // Charges stay at the provider until a test settles them.
  setSimulatedChaos({ settleDelayMs: 10 * 60 * 1000 });
});

describe("billing run × a desk payment (issue 34, item 1: credit spent twice)", () => {
  it(
    "$24.00 of credit pays the $24.00 due; a $10.00 desk payment at the same instant leaves $10.00 of credit, never $34.00",
    async () => {
      await at("2027-10-04");
      const weekly = await addPrice({ amount: 2400, billing_frequency: "weekly" });
      const result = await race({
        setup: async () => {
          const m = await cardMembership(weekly);
          // $24.00 at the desk before the first payment is charged: all of it credit ahead.
          const credit = await deskPayment(m.id, 2400);
          expect(credit.status, JSON.stringify(credit.body)).toBe(200);
          expect(credit.body.data).toMatchObject({ credit_balance: 2400, balance_owing: 0 });
          return m;
        },
        a: {
          name: "billing run",
          point: "claim:read",
          subject: (m) => m.id,
          call: () => runJob("billing-run"),
        },
        b: {
          name: "desk payment",
          point: "facts:read",
          subject: (m) => m.id,
          call: (m) => deskPayment(m.id, 1000, "cash"),
        },
        together: TOGETHER,
        check: async (m, { b }) => {
          expect(b.status, JSON.stringify(b.body)).toBe(200);
          const sub = await subscriptionRecord(m.id);
          expect(sub.credit_balance).toBe(1000);
          expect(sub.payments_sum).toBe(3400);
          const first = (await paymentsOf(sub)).find((p) => p.payment_id === sub.first_payment_id);
          // The due $24.00 was paid by the credit, with no card charge.
          expect(first).toMatchObject({ status: "sent", amount: 0, credit_used: 2400, surcharge: 0 });
          expect((await charges(m.id)).tried).toEqual([]);
        },
      });
      expect(result.rounds).toBe(2 + TOGETHER);
    },
    RACE_TIMEOUT,
  );
});

/** A three-month pay-in-full membership recorded as paid by bank transfer (not yet received). */
async function pifByTransfer(priceId: string) {
  const user = await addMember(world, `Ledger Transfer ${++n}`);
  const added = await admin.post(`/api/members/${user.user_id}/pif`, {
    price_id: priceId,
    gym_id: world.gym_id,
    payment_method: "bank_transfer",
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const transferId: string = added.body.data.first_payment?.id ?? added.body.data.latest_payment?.id;
  expect(added.body.data).toMatchObject({ balance_owing: 29900 });
  return { subscriptionId: added.body.data.id as string, transferId };
}

describe("mark received × a desk payment of the same transfer (issue 34, item 2)", () => {
  it(
    "exactly one of them wins, and the $299.00 is counted once: paid 29900, owing 0, credit 0",
    async () => {
      await at("2027-10-05");
      const pif = await addPrice({
        amount: 29900,
        billing_frequency: "one_off",
        term_amount: 3,
        term_unit: "months",
      });
      const result = await race({
        setup: () => pifByTransfer(pif),
        a: {
          name: "mark received",
          point: "received:read",
          subject: (t) => t.subscriptionId,
          call: (t) => admin.post(`/api/payments/${t.transferId}/received`),
        },
        b: {
          name: "desk payment",
          point: "facts:read",
          subject: (t) => t.subscriptionId,
          call: (t) => deskPayment(t.subscriptionId, 29900),
        },
        together: TOGETHER,
        check: async (t, { a, b }, order) => {
          const statuses = [a.status, b.status].sort();
          const sub = await subscriptionRecord(t.subscriptionId);
          const sent = (await paymentsOf(sub)).filter((p) => p.status === "sent");
          if (order !== "together" || statuses[1] === 409) {
            // At the same instant: exactly one wins, and the $299.00 is counted once.
            expect(statuses, `${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`).toEqual([200, 409]);
            expect(sub).toMatchObject({ payments_sum: 29900, balance_owing: 0, periods_owing: 0 });
            expect(sub.credit_balance ?? 0).toBe(0);
            expect(sent).toHaveLength(1);
          } else {
            // Fired together but one ran whole before the other read: received, then $299.00 more at
            // the desk with nothing owing, which is credit ahead (one at a time, either order is right).
            expect(b.body.data).toMatchObject({ balance_owing: 0, credit_balance: 29900 });
            expect(sub).toMatchObject({ payments_sum: 59800, balance_owing: 0, credit_balance: 29900 });
          }
        },
      });
      expect(result.rounds).toBe(2 + TOGETHER);
    },
    RACE_TIMEOUT,
  );
});

describe("a price's amount edited × its first subscription (issue 34, item 3)", () => {
  it(
    "either the edit or the subscription is refused: a member is never charged an amount the price no longer has",
    async () => {
      await at("2027-10-06");
      const result = await race({
        setup: async () => {
          const made = await admin.post(`/api/offerings/${world.offering_id}/prices`, {
            amount: 3200,
            billing_frequency: "weekly",
          });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          const m = await memberOf(world, api.url, { prefix: "price-race", card: "4242424242424242" });
          return { priceId: made.body.data.id as string, member: m };
        },
        a: {
          name: "price edit",
          point: "price-edit:read",
          subject: (s) => s.priceId,
          call: (s) => admin.put(`/api/prices/${s.priceId}`, { amount: 9900, billing_frequency: "weekly" }),
        },
        b: {
          name: "subscribe",
          point: "subscribe:read",
          subject: (s) => s.priceId,
          call: (s) =>
            s.member.client.post("/api/subscriptions", { price_id: s.priceId, gym_id: world.gym_id }),
        },
        together: TOGETHER_SIGNED_IN,
        check: async (s, { a, b }) => {
          const { findPrice } = await import("@gym/core/price/store");
          const price = await findPrice(world.organisation_id, s.priceId);
          if (b.status === 201) {
            // Subscribed: at the amount the price has, and the price counts its member.
            expect(b.body.data.first_payment.amount).toBe(price?.amount);
            expect(price?.subscriptions_count).toBe(1);
            if (a.status !== 200) {
              expect(a.status).toBe(409);
              expect(a.body.error).toBe("has_members");
              expect(price?.amount).toBe(3200);
            }
          } else {
            expect(b.status, JSON.stringify(b.body)).toBe(409);
            expect(b.body.error).toBe("price_changed");
            expect(a.status).toBe(200);
            expect(price).toMatchObject({ amount: 9900, subscriptions_count: 0 });
          }
        },
      });
      expect(result.rounds).toBe(2 + TOGETHER_SIGNED_IN);
    },
    RACE_TIMEOUT,
  );
});

describe("the retry job × switching to another card (issue 34's race suite)", () => {
  it(
    "the balance is charged at most once in flight and taken at most once",
    async () => {
      const days = [
        "2027-11-01",
        "2027-11-02",
        "2027-11-03",
        "2027-11-04",
        "2027-11-05",
        "2027-11-06",
        "2027-11-07",
      ];
      const monthly = await addPrice({ amount: 3000, billing_frequency: "monthly" });
      let round = 0;
      const result = await race({
        setup: async () => {
          await at(days[round]);
          // A working card saved first, then a declining one (now the default, which the membership uses).
          const m = await cardMembership(monthly, ["4242424242424242", "4000000000009995"]);
          await runJob("billing-run"); // $30.00 fails
          const { listPaymentTypeRecords } = await core();
          const good = (await listPaymentTypeRecords(world.organisation_id, m.user.user_id)).find(
            (t) => !t.is_default,
          );
          if (!good) throw new Error("the working card is not saved");
          await at(days[++round]); // the first retry day
          return { ...m, good: good.payment_type_id };
        },
        a: {
          name: "retry job",
          point: "retry:read",
          subject: (m) => m.id,
          call: () => runJob("payment-retries", { settle: false }),
        },
        b: {
          name: "switch card",
          point: "retry:read",
          subject: (m) => m.id,
          call: async (m) => {
            const { switchDefaultPaymentType } = await import("@gym/core/payment-type/service");
            return switchDefaultPaymentType(world.organisation_id, m.user.user_id, m.good);
          },
        },
        together: 4,
        check: async (m) => {
          const inFlight = (await paymentsOf(m.sub)).filter(
            (p) => p.is_retry && p.status === "pending_request",
          );
          expect(inFlight.length).toBeLessThanOrEqual(1);
          await settle();
          const taken = (await charges(m.id)).taken;
          expect(taken.length).toBeLessThanOrEqual(1);
          const sub = await subscriptionRecord(m.id);
          expect(sub.balance_owing).toBe(taken.length ? 0 : 3000);
        },
      });
      expect(result.rounds).toBe(6);
    },
    RACE_TIMEOUT,
  );
});

describe("cancelling × the billing run (issue 34's race suite)", () => {
  it(
    "the period due today is charged once whichever goes first (by the next hourly run at the latest), and nothing after the cancellation",
    async () => {
      await at("2027-12-01");
      const monthly = await addPrice({ amount: 4500, billing_frequency: "monthly" });
      const result = await race({
        setup: () => cardMembership(monthly),
        a: {
          name: "billing run",
          point: "claim:read",
          subject: (m) => m.id,
          call: () => runJob("billing-run"),
        },
        b: {
          name: "cancel",
          point: "facts:read",
          subject: (m) => m.id,
          call: (m) =>
            admin.post(`/api/subscriptions/${m.id}/cancel`, {
              immediate: false,
              cancellation_reasons: ["Cost"],
            }),
        },
        together: TOGETHER,
        check: async (m, { b }) => {
          expect([200, 409]).toContain(b.status);
          // A claim that lost to the cancellation's write is claimed by the next (hourly) run.
          await runJob("billing-run");
          expect((await charges(m.id)).taken).toEqual([4500 + 143]);
          const upcoming = (await paymentsOf(m.sub)).filter((p) => p.status === "upcoming");
          if (b.status === 200) expect(upcoming).toEqual([]);
        },
      });
      expect(result.rounds).toBe(2 + TOGETHER);
    },
    RACE_TIMEOUT,
  );
});

describe("two desk payments at once (issue 34's race suite)", () => {
  it(
    "each one recorded is counted, and none is lost: paid = what was recorded",
    async () => {
      await at("2027-12-02");
      const monthly = await addPrice({ amount: 5000, billing_frequency: "monthly" });
      const result = await race({
        setup: () => cardMembership(monthly),
        a: {
          name: "desk payment",
          point: "facts:read",
          subject: (m) => m.id,
          call: (m) => deskPayment(m.id, 1000),
        },
        b: {
          name: "desk payment",
          point: "facts:read",
          subject: (m) => m.id,
          call: (m) => deskPayment(m.id, 2500, "cash"),
        },
        together: TOGETHER,
        check: async (m, { a, b }) => {
          const recorded = (a.status === 200 ? 1000 : 0) + (b.status === 200 ? 2500 : 0);
          expect(a.status === 200 || b.status === 200).toBe(true);
          const sub = await subscriptionRecord(m.id);
          expect(sub.payments_sum).toBe(recorded);
          expect(sub.credit_balance).toBe(recorded);
        },
      });
      expect(result.rounds).toBe(2 + TOGETHER);
    },
    RACE_TIMEOUT,
  );
});
