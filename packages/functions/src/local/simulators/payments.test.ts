import type { VerifiedWebhook } from "@gym/core/webhook-log/receive";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

/**
 * The simulated providers inside the running app: their webhooks come back through the public
 * receivers (signatures verified by the same code as a real provider's), the card form saves a
 * card, and the ledger and chaos endpoints work. Core's simulation.test.ts pins the rest.
 */
const api = useTestApi();
const received: VerifiedWebhook[] = [];
let core: {
  stripe: typeof import("@gym/core/providers/stripe/index");
  akahu: typeof import("@gym/core/providers/akahu/index");
  simulation: typeof import("@gym/core/simulators/simulation");
  webhookLog: typeof import("@gym/core/webhook-log/service");
};
const account = "acct_simDeliveryGym";
const organisation = "01JDELIVERYTESTORGANISATN0";

beforeAll(async () => {
  core = {
    stripe: await import("@gym/core/providers/stripe/index"),
    akahu: await import("@gym/core/providers/akahu/index"),
    simulation: await import("@gym/core/simulators/simulation"),
    webhookLog: await import("@gym/core/webhook-log/service"),
  };
  const { onWebhook } = await import("@gym/core/webhook-log/receive");
  onWebhook("stripe", async (event) => void received.push(event));
  onWebhook("akahu", async (event) => void received.push(event));
});
beforeEach(() => {
  core.simulation.resetSimulatedProviders();
  received.length = 0;
});

async function savedCard(number: string) {
  const stripe = core.stripe.stripeProvider();
  const setup = await stripe.createSetupIntent(account, {
    email: "card@example.com",
    name: "Card Holder",
    idempotencyKey: `setup-${Math.random()}`,
  });
  await stripe.confirmSimulatedCard?.(account, setup.setup_intent_id, { number });
  const state = await stripe.retrieveSetupIntent(account, setup.setup_intent_id);
  return { customer_id: state.customer_id, payment_method_id: state.payment_method_id ?? "" };
}

const charge = async (number: string, key: string) =>
  core.stripe.stripeProvider().chargeOffSession(account, {
    ...(await savedCard(number)),
    amount: 4_200,
    currency: "nzd",
    idempotencyKey: key,
    description: "Membership",
    metadata: { payment_id: key, organisation_id: organisation, subscription_id: "sub_1" },
  });

describe("simulated webhooks through the app's receivers", () => {
  it("a settled card charge arrives as a verified payment_intent event for the connected account", async () => {
    const answer = await charge("4242424242424242", "pay_app_1");
    await core.simulation.settleSimulatedNow();
    expect(core.simulation.simulatedDeliveries().map((d) => d.outcome)).toEqual(["delivered", "delivered"]);
    expect(received.map((e) => e.eventType)).toEqual([
      "payment_intent.processing",
      "payment_intent.succeeded",
    ]);
    const payload = received[1].payload as { account: string; data: { object: Record<string, unknown> } };
    expect(payload.account).toBe(account);
    expect(payload.data.object).toMatchObject({
      id: answer.id,
      status: "succeeded",
      metadata: { payment_id: "pay_app_1" },
    });
  });

  it("duplicated webhooks are recorded once as accepted and once as duplicate; handlers run once", async () => {
    core.simulation.setSimulatedChaos({ duplicateWebhooks: 1 });
    await charge("4000000000009995", "pay_app_dup");
    await core.simulation.settleSimulatedNow();
    expect(core.simulation.simulatedDeliveries()).toHaveLength(4);
    expect(received.map((e) => e.eventType)).toEqual([
      "payment_intent.processing",
      "payment_intent.payment_failed",
    ]);
    const calls = await core.webhookLog.listWebhookCalls("global", { provider: "stripe", per_page: 100 });
    const failed = calls.data.filter((c) => c.event_type === "payment_intent.payment_failed");
    expect(failed.map((c) => c.outcome).sort()).toEqual(["accepted", "duplicate"]);
  });

  it("dropped webhooks never reach the app; polling still reads the outcome", async () => {
    core.simulation.setSimulatedChaos({ dropWebhooks: 1 });
    const answer = await charge("4000000000000069", "pay_app_drop");
    await core.simulation.settleSimulatedNow();
    expect(received).toHaveLength(0);
    expect(await core.stripe.stripeProvider().retrievePaymentIntent(account, answer.id)).toMatchObject({
      status: "requires_payment_method",
      decline_code: "expired_card",
    });
  });

  it("a bank payment's PAYMENT/UPDATE webhooks verify through the Akahu receiver, filed by state", async () => {
    const akahu = core.akahu.akahuProvider();
    const app = { appToken: "app_token_sim", appSecret: "secret" };
    const { simulatedAkahuCode } = await import("@gym/core/simulators/akahu");
    const { accessToken } = await akahu.exchange(app, {
      code: simulatedAkahuCode("bank-member"),
      redirectUri: "x",
    });
    await akahu.subscribeWebhooks(app, accessToken, { webhook_type: "PAYMENT", state: organisation });
    const from =
      (await akahu.listAccounts(app, accessToken)).find((a) => a.name === "Closed account")?.id ?? "";
    const made = await akahu.createPayment(app, accessToken, {
      from_account: from,
      to: { name: "Gym", account_number: "12-3140-0171323-50" },
      amount: 3_000,
      reference: { particulars: "PAPP1", code: "GYM", reference: "WEEK" },
      idempotencyKey: "bank_app_1",
    });
    await core.simulation.settleSimulatedNow();
    expect(received.map((e) => e.eventType)).toEqual(["PAYMENT.UPDATE", "PAYMENT.UPDATE"]);
    expect(received[1].payload).toMatchObject({
      item_id: made.id,
      status: "DECLINED",
      status_code: "INVALID_ACCOUNT",
      state: organisation,
    });
  });

  it("a forged event (signed with another secret) is refused by the receiver and changes nothing", async () => {
    const { receiveStripe } = await import("../../webhooks/stripe");
    const { signStripePayload } = await import("@gym/core/providers/stripe/verify");
    const body = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "payment_intent.succeeded",
      account,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "pi_forged", object: "payment_intent", status: "succeeded", metadata: {} } },
    });
    const answer = await receiveStripe(body, signStripePayload(body, "whsec_attacker"));
    expect(answer).toMatchObject({ status: 400, outcome: "rejected" });
    expect(received).toHaveLength(0);
  });
});

describe("the simulated card form and the developer endpoints", () => {
  it("saves a card through the form's confirm call and returns to the join site like Stripe.js", async () => {
    const stripe = core.stripe.stripeProvider();
    const setup = await stripe.createSetupIntent(account, {
      email: "form@example.com",
      name: "Form",
      idempotencyKey: "form-setup",
    });
    const { config } = await import("@gym/core/config");
    const { simulatedCardFormUrl } = await import("@gym/core/simulators/stripe");
    const returnUrl = `${config.joinUrl}/payment-method/return`;
    const page = new URL(
      simulatedCardFormUrl({
        account,
        setupIntentId: setup.setup_intent_id,
        clientSecret: setup.client_secret,
        returnUrl,
      }),
    );
    const client = new HttpClient(api.url);
    const html = await client.get(`${page.pathname}${page.search}`);
    expect(html.status).toBe(200);
    expect(String(html.body)).toContain("4000000000009987");
    const confirm = (number: string) =>
      client.post("/api/dev/stripe/setup/confirm", {
        account,
        setup_intent: setup.setup_intent_id,
        client_secret: setup.client_secret,
        return_url: returnUrl,
        number,
        exp_month: 11,
        exp_year: new Date().getUTCFullYear() + 2,
      });
    const refused = await confirm("4000000000000002");
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("Your card was declined.");
    expect((await confirm("4242 4242 4242 4241")).body.message).toBe("Your card number is incorrect.");
    const saved = await confirm("4000 0055 4000 0008");
    expect(saved.status).toBe(200);
    const back = new URL(saved.body.data.redirect);
    expect(back.origin + back.pathname).toBe(returnUrl);
    expect(back.searchParams.get("setup_intent")).toBe(setup.setup_intent_id);
    expect(back.searchParams.get("redirect_status")).toBe("succeeded");
    expect(await stripe.retrieveSetupIntent(account, setup.setup_intent_id)).toMatchObject({
      status: "succeeded",
      card: { brand: "visa", last4: "0008", exp_month: 11, country: "NZ" },
    });
    const elsewhere = await client.get(
      `/api/dev/stripe/setup?account=${account}&setup_intent=x&client_secret=y&return_url=${encodeURIComponent("https://evil.example/x")}`,
    );
    expect(elsewhere.status).toBe(422);
  });

  it("chaos, settle and ledger over HTTP", async () => {
    const client = new HttpClient(api.url);
    const chaos = await client.put("/api/dev/providers/chaos", { settleDelayMs: 60_000 });
    expect(chaos.body.data.settleDelayMs).toBe(60_000);
    await charge("4242424242424242", "pay_http");
    expect((await client.post("/api/dev/providers/settle")).body.data.settled).toBe(1);
    const ledger = await client.get("/api/dev/providers/ledger");
    expect(ledger.body.data.ledger).toEqual([
      expect.objectContaining({ idempotency_key: "pay_http", status: "succeeded", taken: true }),
    ]);
  });
});
