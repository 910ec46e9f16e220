import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AkahuApp } from "../providers/akahu/port";
import { ProviderError } from "../providers/errors";
import { verifyStripeWebhook } from "../providers/stripe/verify";
import { signSimulatedAkahuWebhook, simulatedAkahu, simulatedAkahuCode } from "./akahu";
import { createSimulatedPayment, simulatedAccountsFor } from "./akahu-payments";
import {
  flushSimulatedWebhooks,
  resetSimulatedProviders,
  setSimulatedChaos,
  settleSimulatedNow,
  simulatedDeliveries,
  simulatedLedger,
} from "./simulation";
import { SIMULATED_STRIPE_WEBHOOK_SECRET, simulatedStripe } from "./stripe";
import { setWebhookDeliverer } from "./webhook-delivery";

/**
 * The simulated providers' own promises (docs/providers.md, "Simulated payments"): the ledger,
 * idempotency, asynchronous settlement and webhooks, chaos. The contract they share with the real
 * adapters is in adapters.test.ts.
 */
interface Delivered {
  provider: "stripe" | "akahu";
  body: Record<string, unknown>;
  headers: Record<string, string>;
  raw: string;
}
let delivered: Delivered[] = [];

beforeEach(() => {
  resetSimulatedProviders();
  delivered = [];
  setWebhookDeliverer(async (provider, raw, headers) => {
    delivered.push({ provider, raw, headers, body: JSON.parse(raw) });
  });
});
afterEach(() => setWebhookDeliverer(undefined));

const account = "acct_simLedgerGym";
const stripe = simulatedStripe();

async function card(number: string) {
  const setup = await stripe.createSetupIntent(account, {
    email: "m@example.com",
    name: "M",
    idempotencyKey: `setup-${Math.random()}`,
  });
  await stripe.confirmSimulatedCard?.(account, setup.setup_intent_id, { number });
  const state = await stripe.retrieveSetupIntent(account, setup.setup_intent_id);
  return { customer_id: state.customer_id, payment_method_id: state.payment_method_id ?? "" };
}

const charge = async (number: string, key: string, amount = 2_500) =>
  stripe.chargeOffSession(account, {
    ...(await card(number)),
    amount,
    currency: "nzd",
    idempotencyKey: key,
    description: "Weekly membership",
    metadata: { payment_id: key, organisation_id: "org_1", subscription_id: "sub_1" },
  });

async function bankMember() {
  const akahu = simulatedAkahu();
  const app: AkahuApp = { appToken: "app_token_sim", appSecret: "s" };
  const { accessToken } = await akahu.exchange(app, {
    code: simulatedAkahuCode(`m-${Math.random()}`),
    redirectUri: "x",
  });
  const accounts = await akahu.listAccounts(app, accessToken);
  const from = (name: string) => accounts.find((a) => a.name === name)?.id ?? "";
  return { akahu, app, token: accessToken, from };
}
const to = { name: "Ponsonby Fitness", account_number: "12-3140-0171323-50" };

describe("the ledger", () => {
  it("records each charge once per idempotency key, however often it is asked", async () => {
    const first = await charge("4242424242424242", "pay_A");
    const card2 = await card("4242424242424242");
    const input = {
      ...card2,
      amount: 2_500,
      currency: "nzd" as const,
      idempotencyKey: "pay_B",
      description: "x",
      metadata: { payment_id: "pay_B" },
    };
    const b1 = await stripe.chargeOffSession(account, input);
    const b2 = await stripe.chargeOffSession(account, input);
    expect(b2).toEqual(b1);
    await settleSimulatedNow();
    const ledger = simulatedLedger();
    expect(ledger.map((e) => e.idempotency_key)).toEqual(["pay_A", "pay_B"]);
    expect(ledger[0]).toMatchObject({
      provider: "stripe",
      provider_id: first.id,
      account,
      amount: 2_500,
      status: "succeeded",
      final: true,
      taken: true,
      meta: { payment_id: "pay_A" },
    });
  });

  it("records declines as not taken, with their code", async () => {
    await charge("4000000000009995", "pay_poor");
    await settleSimulatedNow();
    expect(simulatedLedger()[0]).toMatchObject({
      status: "requires_payment_method",
      taken: false,
      failure_code: "insufficient_funds",
    });
  });

  it("declines a card once its expiry month is over, on the world's clock (expired_card), and pays before", async () => {
    let now = new Date("2027-01-31T10:00:00Z"); // 23:00 on 31 January in Auckland
    const world = simulatedStripe({ now: async () => now });
    const setup = await world.createSetupIntent(account, {
      email: "e@example.com",
      name: "E",
      idempotencyKey: "setup-exp",
    });
    await world.confirmSimulatedCard?.(account, setup.setup_intent_id, {
      number: "4242424242424242",
      exp_month: 1,
      exp_year: 2027,
    });
    const saved = await world.retrieveSetupIntent(account, setup.setup_intent_id);
    const pay = (key: string) =>
      world.chargeOffSession(account, {
        customer_id: saved.customer_id,
        payment_method_id: saved.payment_method_id ?? "",
        amount: 2_500,
        currency: "nzd",
        idempotencyKey: key,
        description: "Monthly membership",
        metadata: {},
      });
    await pay("pay_last_day");
    now = new Date("2027-01-31T11:30:00Z"); // 00:30 on 1 February in Auckland
    await pay("pay_after_expiry");
    await settleSimulatedNow();
    expect(simulatedLedger().map((e) => [e.idempotency_key, e.taken, e.failure_code])).toEqual([
      ["pay_last_day", true, null],
      ["pay_after_expiry", false, "expired_card"],
    ]);
  });

  it("keeps bank payments too, and the same key within 24 hours makes one payment", async () => {
    const { akahu, app, token, from } = await bankMember();
    const input = {
      from_account: from("Everyday"),
      to,
      amount: 1_999,
      reference: { particulars: "PAY1", code: "GYM", reference: "WEEK 1" },
      idempotencyKey: "bank_1",
    };
    const one = await akahu.createPayment(app, token, input);
    const two = await akahu.createPayment(app, token, input);
    expect(two.id).toBe(one.id);
    await settleSimulatedNow();
    expect(simulatedLedger()).toEqual([
      expect.objectContaining({
        provider: "akahu",
        provider_id: one.id,
        account: from("Everyday"),
        to_account: to.account_number,
        amount: 1_999,
        status: "SENT",
        taken: true,
      }),
    ]);
  });

  it("forgets an Akahu key after 24 hours, as Akahu does: a second payment (recovery must list, not repeat)", () => {
    const token = "user_token_sim_expiry";
    const from = simulatedAccountsFor(token)[0].id;
    const input = {
      from_account: from,
      to,
      amount: 500,
      reference: { particulars: "P", code: "", reference: "" },
      idempotencyKey: "bank_old",
    };
    const now = Date.now();
    const first = createSimulatedPayment("app", token, input, signSimulatedAkahuWebhook, now);
    const sameDay = createSimulatedPayment(
      "app",
      token,
      input,
      signSimulatedAkahuWebhook,
      now + 23 * 3_600_000,
    );
    const nextDay = createSimulatedPayment(
      "app",
      token,
      input,
      signSimulatedAkahuWebhook,
      now + 25 * 3_600_000,
    );
    expect(sameDay.id).toBe(first.id);
    expect(nextDay.id).not.toBe(first.id);
    expect(simulatedLedger().filter((e) => e.idempotency_key === "bank_old")).toHaveLength(2);
  });
});

describe("settlement", () => {
  it("answers processing, then settles after the delay with a signed event for the connected account", async () => {
    setSimulatedChaos({ settleDelayMs: 5 });
    const answer = await charge("4242424242424242", "pay_async");
    expect(answer.status).toBe("processing");
    await new Promise((resolve) => setTimeout(resolve, 30));
    await flushSimulatedWebhooks();
    expect((await stripe.retrievePaymentIntent(account, answer.id)).status).toBe("succeeded");
    const events = delivered.map((d) => d.body.type);
    expect(events).toEqual(["payment_intent.processing", "payment_intent.succeeded"]);
    const last = delivered[1];
    const event = await verifyStripeWebhook(
      last.raw,
      last.headers["stripe-signature"],
      SIMULATED_STRIPE_WEBHOOK_SECRET,
    );
    expect(event).toMatchObject({ account, livemode: false, type: "payment_intent.succeeded" });
    expect(event.data.object).toMatchObject({
      id: answer.id,
      status: "succeeded",
      amount: 2_500,
      metadata: { payment_id: "pay_async", organisation_id: "org_1", subscription_id: "sub_1" },
    });
  });

  it("a declined charge settles as payment_failed with last_payment_error", async () => {
    const answer = await charge("4000000000009987", "pay_lost");
    await settleSimulatedNow();
    const failed = delivered.find((d) => d.body.type === "payment_intent.payment_failed");
    if (!failed) throw new Error("no payment_failed event");
    const object = (failed.body.data as { object: Record<string, unknown> }).object;
    expect(object).toMatchObject({
      id: answer.id,
      status: "requires_payment_method",
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "lost_card" },
    });
  });

  it("bank payments send PAYMENT/UPDATE webhooks, RSA-signed, to subscribed tokens only", async () => {
    const subscribed = await bankMember();
    await subscribed.akahu.subscribeWebhooks(subscribed.app, subscribed.token, {
      webhook_type: "PAYMENT",
      state: "01JORGANISATION00000000000",
    });
    const quiet = await bankMember();
    const pay = (m: Awaited<ReturnType<typeof bankMember>>, key: string, name: string) =>
      m.akahu.createPayment(m.app, m.token, {
        from_account: m.from(name),
        to,
        amount: 1_000,
        reference: { particulars: key, code: "", reference: "" },
        idempotencyKey: key,
      });
    const paid = await pay(subscribed, "B1", "Low balance");
    await pay(quiet, "B2", "Everyday");
    await settleSimulatedNow();
    expect(delivered.map((d) => d.body)).toEqual([
      {
        webhook_type: "PAYMENT",
        webhook_code: "UPDATE",
        state: "01JORGANISATION00000000000",
        item_id: paid.id,
        status: "PENDING_APPROVAL",
      },
      {
        webhook_type: "PAYMENT",
        webhook_code: "UPDATE",
        state: "01JORGANISATION00000000000",
        item_id: paid.id,
        status: "DECLINED",
        status_code: "INSUFFICIENT_FUNDS",
        status_text: expect.any(String),
      },
    ]);
    const last = delivered[1];
    const verified = await subscribed.akahu.verifyWebhook(
      last.headers["x-akahu-signing-key"],
      last.headers["x-akahu-signature"],
      last.raw,
    );
    expect(verified.item_id).toBe(paid.id);
  });

  it("polling reports the settled status when no webhook was delivered", async () => {
    setWebhookDeliverer(undefined);
    const answer = await charge("4242424242424242", "pay_poll");
    await settleSimulatedNow();
    expect((await stripe.retrievePaymentIntent(account, answer.id)).status).toBe("succeeded");
    expect(simulatedDeliveries().every((d) => d.outcome === "no_deliverer")).toBe(true);
  });

  it("the slow bank account is not settled by settleSimulatedNow, only by polls (or pollGated)", async () => {
    const { akahu, app, token, from } = await bankMember();
    const made = await akahu.createPayment(app, token, {
      from_account: from("Slow bank"),
      to,
      amount: 700,
      reference: { particulars: "SLOW", code: "", reference: "" },
      idempotencyKey: "slow_1",
    });
    expect((await settleSimulatedNow()).settled).toBe(0);
    expect((await settleSimulatedNow({ pollGated: true })).settled).toBe(1);
    expect((await akahu.getPayment(app, token, made.id)).status).toBe("SENT");
  });
});

describe("chaos", () => {
  it("timeoutNextCharge: the charge is taken but the call throws unavailable; the same key then answers it", async () => {
    const method = await card("4242424242424242");
    const input = {
      ...method,
      amount: 3_000,
      currency: "nzd" as const,
      idempotencyKey: "pay_timeout",
      description: "x",
      metadata: { payment_id: "pay_timeout" },
    };
    setSimulatedChaos({ timeoutNextCharge: true });
    const thrown = await stripe.chargeOffSession(account, input).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown).toMatchObject({ kind: "unavailable", provider: "stripe" });
    expect(simulatedLedger()).toHaveLength(1);
    const again = await stripe.chargeOffSession(account, input);
    expect(again.id).toBe(simulatedLedger()[0].provider_id);
    await settleSimulatedNow();
    expect(simulatedLedger()).toEqual([
      expect.objectContaining({ taken: true, idempotency_key: "pay_timeout" }),
    ]);
  });

  it("timeoutNextCharge on a bank payment: made, the call throws, the payment settles", async () => {
    const { akahu, app, token, from } = await bankMember();
    setSimulatedChaos({ timeoutNextCharge: true });
    await expect(
      akahu.createPayment(app, token, {
        from_account: from("Everyday"),
        to,
        amount: 800,
        reference: { particulars: "TO", code: "", reference: "" },
        idempotencyKey: "bank_timeout",
      }),
    ).rejects.toMatchObject({ kind: "unavailable", provider: "akahu" });
    await settleSimulatedNow();
    expect(simulatedLedger()).toEqual([expect.objectContaining({ status: "SENT", taken: true })]);
  });

  it("duplicateWebhooks: 1 delivers every event twice, the same event id each time", async () => {
    setSimulatedChaos({ duplicateWebhooks: 1 });
    await charge("4242424242424242", "pay_dup");
    await settleSimulatedNow();
    const ids = delivered.map((d) => d.body.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(2);
    expect(simulatedDeliveries().filter((d) => d.duplicate)).toHaveLength(2);
  });

  it("dropWebhooks: 1 delivers nothing, and polling still settles", async () => {
    setSimulatedChaos({ dropWebhooks: 1 });
    const answer = await charge("4000000000000341", "pay_drop");
    await settleSimulatedNow();
    expect(delivered).toHaveLength(0);
    expect(simulatedDeliveries().map((d) => d.outcome)).toEqual(["dropped", "dropped"]);
    expect(await stripe.retrievePaymentIntent(account, answer.id)).toMatchObject({
      status: "requires_payment_method",
      decline_code: "generic_decline",
    });
  });

  it("a seeded probability drops and duplicates the same webhooks every run", async () => {
    const run = async () => {
      resetSimulatedProviders();
      delivered = [];
      setSimulatedChaos({ seed: 42, dropWebhooks: 0.3, duplicateWebhooks: 0.3 });
      for (let i = 0; i < 10; i++) await charge("4242424242424242", `pay_seed_${i}`);
      await settleSimulatedNow();
      return simulatedDeliveries()
        .map((d) => `${d.type}:${d.outcome}:${d.duplicate}`)
        .sort();
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first.some((d) => d.includes("dropped"))).toBe(true);
    expect(first.some((d) => d.endsWith(":true"))).toBe(true);
  });

  it("reorderWebhooks: the interim event arrives after the final one", async () => {
    setSimulatedChaos({ reorderWebhooks: true, seed: 7 });
    await charge("4242424242424242", "pay_order");
    await settleSimulatedNow();
    expect(delivered.map((d) => d.body.type)).toEqual([
      "payment_intent.succeeded",
      "payment_intent.processing",
    ]);
  });

  it("a deliverer that fails is retried, then the event is given up (polling settles)", async () => {
    let calls = 0;
    setWebhookDeliverer(async () => {
      calls += 1;
      throw new Error("500 from the app");
    });
    await charge("4242424242424242", "pay_retry");
    await settleSimulatedNow();
    expect(calls).toBe(6); // two events, three attempts each
    expect(simulatedDeliveries().map((d) => d.outcome)).toEqual(["failed", "failed"]);
  });
});
