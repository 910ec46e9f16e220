import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AkahuStub,
  type KisiStub,
  type StripeStub,
  startAkahuStub,
  startBranchStub,
  startKisiStub,
  startStripeStub,
} from "../../../../tests/support/provider-stubs/index";
import type { AkahuApp, AkahuPort } from "./akahu/port";
import { realAkahu } from "./akahu/real";
import {
  SIMULATED_AKAHU_KEY_ID,
  signSimulatedAkahuWebhook,
  simulatedAkahu,
  simulatedAkahuCode,
} from "./akahu/simulated";
import type { BranchPort } from "./branch/port";
import { realBranch } from "./branch/real";
import { simulatedBranch } from "./branch/simulated";
import { ProviderError } from "./errors";
import type { KisiPort } from "./kisi/port";
import { realKisi } from "./kisi/real";
import { simulatedKisi } from "./kisi/simulated";
import { resetSimulatedProviders, settleSimulatedNow } from "./simulation";
import { isHardCardDecline, type StripePort, WebhookSignatureError } from "./stripe/port";
import { realStripe } from "./stripe/real";
import { SIMULATED_STRIPE_WEBHOOK_SECRET, simulatedStripe, simulatedStripeCode } from "./stripe/simulated";
import { signStripePayload } from "./stripe/verify";

/**
 * Each provider's real adapter runs against a local stand-in of the provider's HTTP API; the
 * simulated adapter runs through the same contract, so it behaves like the provider.
 */
let stripeStub: StripeStub;
let akahuStub: AkahuStub;
let kisiStub: KisiStub;
let branchStub: Awaited<ReturnType<typeof startBranchStub>>;

beforeAll(async () => {
  [stripeStub, akahuStub, kisiStub, branchStub] = await Promise.all([
    startStripeStub(),
    startAkahuStub(),
    startKisiStub(),
    startBranchStub(),
  ]);
});
afterAll(async () => {
  await Promise.all([stripeStub.close(), akahuStub.close(), kisiStub.close(), branchStub.close()]);
});

const declined = (provider: string) => expect.objectContaining({ provider, kind: "declined", status: 422 });

describe.each([
  {
    name: "real (Stripe SDK against the stand-in)",
    make: (): StripePort =>
      realStripe({
        secretKey: stripeStub.secretKey,
        clientId: "ca_stub",
        webhookSecret: "whsec_stub",
        apiBase: stripeStub.url,
      }),
    code: () => stripeStub.issueCode(),
    secret: "whsec_stub",
  },
  {
    name: "simulated",
    make: (): StripePort => simulatedStripe({ baseUrl: "http://localhost:3000" }),
    code: () => simulatedStripeCode("state-1"),
    secret: SIMULATED_STRIPE_WEBHOOK_SECRET,
  },
])("Stripe Connect: $name", ({ make, code, secret }) => {
  it("builds the consent URL with the state and return address", () => {
    const url = new URL(
      make().connectUrl({ state: "signed-state", redirectUri: "http://localhost:3000/stripe/callback" }),
    );
    expect(url.searchParams.get("state")).toBe("signed-state");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/stripe/callback");
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("scope")).toBe("read_write");
  });

  it("exchanges a code once for the connected account; a reused or unknown code is declined", async () => {
    const port = make();
    const given = code();
    const account = await port.exchangeConnectCode(given);
    expect(account.stripe_user_id).toMatch(/^acct_/);
    expect(account.livemode).toBe(false);
    await expect(port.exchangeConnectCode(given)).rejects.toEqual(declined("stripe"));
    await expect(port.exchangeConnectCode("ac_made_up")).rejects.toBeInstanceOf(ProviderError);
  });

  it("verifies webhook signatures over the raw body", () => {
    const port = make();
    const body = JSON.stringify({
      id: "evt_1",
      type: "account.updated",
      account: "acct_1",
      livemode: false,
      created: 1,
      data: { object: {} },
    });
    expect(port.verifyWebhook(body, signStripePayload(body, secret)).type).toBe("account.updated");
    expect(() => port.verifyWebhook(`${body} `, signStripePayload(body, secret))).toThrow(
      WebhookSignatureError,
    );
    expect(() => port.verifyWebhook(body, signStripePayload(body, "whsec_other"))).toThrow(
      WebhookSignatureError,
    );
    expect(() => port.verifyWebhook(body, undefined)).toThrow(WebhookSignatureError);
  });
});

it("real Stripe sends the code to connect's /oauth/token with the platform key", () => {
  const sent = stripeStub.requests.find((r) => r.path === "/oauth/token");
  expect(sent?.headers.authorization).toBe(`Bearer ${stripeStub.secretKey}`);
  expect(new URLSearchParams(sent?.body).get("grant_type")).toBe("authorization_code");
});

describe.each([
  {
    name: "real (Akahu SDK against the stand-in)",
    make: (): { port: AkahuPort; app: AkahuApp } => ({
      port: realAkahu({
        platformApp: akahuStub.app,
        apiBase: akahuStub.url,
        oauthBase: "http://127.0.0.1:1",
      }),
      app: akahuStub.app,
    }),
    code: () => akahuStub.issueCode(),
    sign: (body: string) => ({ keyId: String(akahuStub.keyId), signature: akahuStub.sign(body) }),
  },
  {
    name: "simulated",
    make: () => ({
      port: simulatedAkahu({ baseUrl: "http://localhost:3001" }),
      app: { appToken: "app_token_x", appSecret: "s" },
    }),
    code: () => simulatedAkahuCode("state-1"),
    sign: (body: string) => signSimulatedAkahuWebhook(body),
  },
])("Akahu: $name", ({ make, code, sign }) => {
  it("builds the consent URL for enduring consent with the app token as client id", async () => {
    const { port, app } = make();
    const url = new URL(
      await port.authorizationUrl(app, { redirectUri: "http://localhost:3001/connect-akahu", state: "st" }),
    );
    expect(url.searchParams.get("client_id")).toBe(app.appToken);
    expect(url.searchParams.get("scope")).toBe("ENDURING_CONSENT");
    expect(url.searchParams.get("state")).toBe("st");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3001/connect-akahu");
  });

  it("exchanges a code once for a user token and lists that person's accounts", async () => {
    const { port, app } = make();
    const given = code();
    const { accessToken } = await port.exchange(app, {
      code: given,
      redirectUri: "http://localhost:3001/connect-akahu",
    });
    expect(accessToken).toMatch(/^user_token_/);
    const accounts = await port.listAccounts(app, accessToken);
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts[0]).toMatchObject({
      id: expect.stringMatching(/^acc_/),
      status: "ACTIVE",
      formatted_account: expect.stringMatching(/^\d{2}-\d{4}-\d{7}-\d{2,3}$/),
    });
    await expect(port.exchange(app, { code: given, redirectUri: "x" })).rejects.toEqual(declined("akahu"));
    await expect(port.listAccounts(app, "user_token_unknown")).rejects.toEqual(declined("akahu"));
  });

  it("verifies RSA-SHA256 webhook signatures with the named key", async () => {
    const { port } = make();
    const body = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", state: "org" });
    const { keyId, signature } = sign(body);
    expect((await port.verifyWebhook(keyId, signature, body)).webhook_code).toBe("UPDATE");
    await expect(
      port.verifyWebhook(keyId, signature, body.replace("UPDATE", "CREATE")),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(port.verifyWebhook(null, signature, body)).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});

it("real Akahu fetches the signing key once and caches it", async () => {
  const port = realAkahu({ platformApp: akahuStub.app, apiBase: akahuStub.url });
  const before = akahuStub.requests.filter((r) => r.path.startsWith("/v1/keys/")).length;
  for (const n of [1, 2, 3]) {
    const body = JSON.stringify({ webhook_type: "TOKEN", webhook_code: "DELETE", n });
    await port.verifyWebhook(String(akahuStub.keyId), akahuStub.sign(body), body);
  }
  expect(
    akahuStub.requests.filter((r) => r.path.startsWith("/v1/keys/")).length - before,
  ).toBeLessThanOrEqual(1);
  expect(SIMULATED_AKAHU_KEY_ID).toBe("1");
});

describe.each([
  {
    name: "real (REST against the stand-in)",
    make: (): KisiPort => realKisi({ apiBase: kisiStub.url }),
    key: () => kisiStub.apiKey,
  },
  { name: "simulated", make: (): KisiPort => simulatedKisi(), key: () => "kisi_simulated_key" },
])("Kisi: $name", ({ make, key }) => {
  it("lists places and each place's locks", async () => {
    const port = make();
    const places = await port.listPlaces(key());
    expect(places.length).toBeGreaterThan(0);
    expect(typeof places[0].id).toBe("string");
    expect(await port.getPlace(key(), places[0].id)).toEqual(places[0]);
    expect(await port.getPlace(key(), "404404")).toBeNull();
    const locks = await port.listLocks(key(), places[0].id);
    expect(locks.length).toBeGreaterThan(0);
    expect(locks.every((lock) => lock.place_id === places[0].id)).toBe(true);
  });

  it("declines a key Kisi does not accept", async () => {
    await expect(make().listPlaces("wrong")).rejects.toEqual(declined("kisi"));
  });
});

describe.each([
  {
    name: "real (REST against the stand-in)",
    make: (): BranchPort => realBranch({ apiBase: branchStub.url }),
    key: () => branchStub.branchKey,
    secret: () => branchStub.branchSecret,
  },
  {
    name: "simulated",
    make: (): BranchPort => simulatedBranch(),
    key: () => "key_test_abc123",
    secret: () => "secret_abc",
  },
])("Branch: $name", ({ make, key, secret }) => {
  it("accepts the app's key and secret and declines a wrong secret", async () => {
    expect((await make().checkApp({ branchKey: key(), branchSecret: secret() })).app_id).toBeTruthy();
    await expect(make().checkApp({ branchKey: key(), branchSecret: "wrong" })).rejects.toEqual(
      declined("branch"),
    );
  });
});

describe.each([
  {
    name: "real (Stripe SDK against the stand-in)",
    make: (): StripePort =>
      realStripe({
        secretKey: stripeStub.secretKey,
        clientId: "ca_stub",
        webhookSecret: "whsec_stub",
        apiBase: stripeStub.url,
      }),
    // Stripe.js in the member's browser, stood in for by the stub.
    confirmCard: async (_port: StripePort, account: string, setupIntentId: string, number: string) =>
      stripeStub.confirmSetupIntent(account, setupIntentId, number),
    settle: async () => {},
  },
  {
    name: "simulated",
    make: (): StripePort => simulatedStripe({ baseUrl: "http://localhost:3000" }),
    confirmCard: async (port: StripePort, account: string, setupIntentId: string, number: string) => {
      await port.confirmSimulatedCard?.(account, setupIntentId, { number });
    },
    settle: async () => {
      await settleSimulatedNow();
    },
  },
])("Stripe saved cards and off-session charges: $name", ({ make, confirmCard, settle }) => {
  const account = "acct_1ContractGym";
  let n = 0;
  const key = () => `contract-${Date.now()}-${++n}`;

  beforeAll(() => resetSimulatedProviders());

  async function savedCard(port: StripePort, number: string) {
    const setup = await port.createSetupIntent(account, {
      email: "m@example.com",
      name: "Mere",
      idempotencyKey: key(),
    });
    await confirmCard(port, account, setup.setup_intent_id, number);
    const state = await port.retrieveSetupIntent(account, setup.setup_intent_id);
    return { customer_id: state.customer_id, payment_method_id: state.payment_method_id ?? "" };
  }

  it("creates a customer and a SetupIntent once per key, and reports the card once confirmed", async () => {
    const port = make();
    const input = { email: "aroha@example.com", name: "Aroha", idempotencyKey: key() };
    const setup = await port.createSetupIntent(account, input);
    expect(setup.setup_intent_id).toMatch(/^seti_/);
    expect(setup.customer_id).toMatch(/^cus_/);
    expect(setup.client_secret).toContain("_secret_");
    expect(await port.createSetupIntent(account, input)).toEqual(setup);
    expect(await port.retrieveSetupIntent(account, setup.setup_intent_id)).toMatchObject({
      status: "requires_payment_method",
      payment_method_id: null,
      card: null,
    });
    await confirmCard(port, account, setup.setup_intent_id, "4242424242424242");
    const saved = await port.retrieveSetupIntent(account, setup.setup_intent_id);
    expect(saved).toMatchObject({
      status: "succeeded",
      customer_id: setup.customer_id,
      payment_method_id: expect.stringMatching(/^pm_/),
      card: { brand: "visa", last4: "4242", exp_month: expect.any(Number), exp_year: expect.any(Number) },
    });
    // A second card for the same customer: another SetupIntent on the existing Customer.
    const again = await port.createSetupIntent(account, {
      ...input,
      customer_id: setup.customer_id,
      idempotencyKey: key(),
    });
    expect(again.customer_id).toBe(setup.customer_id);
    expect(again.setup_intent_id).not.toBe(setup.setup_intent_id);
  });

  it.each([
    { number: "4242424242424242", status: "succeeded", decline: null, hard: false },
    {
      number: "4000000000000341",
      status: "requires_payment_method",
      decline: "generic_decline",
      hard: false,
    },
    {
      number: "4000000000009995",
      status: "requires_payment_method",
      decline: "insufficient_funds",
      hard: false,
    },
    { number: "4000000000009987", status: "requires_payment_method", decline: "lost_card", hard: true },
    { number: "4000000000000069", status: "requires_payment_method", decline: "expired_card", hard: true },
  ])("charges $number off-session: $status $decline", async ({ number, status, decline, hard }) => {
    const port = make();
    const card = await savedCard(port, number);
    const metadata = { payment_id: `pay_${n}`, organisation_id: "org_1", subscription_id: "sub_1" };
    const answer = await port.chargeOffSession(account, {
      ...card,
      amount: 2_999,
      currency: "nzd",
      idempotencyKey: key(),
      description: "Ponsonby: 1 Jan - 7 Jan",
      metadata,
    });
    expect(answer.id).toMatch(/^pi_/);
    expect(answer.amount).toBe(2_999);
    // Settled at once (as Stripe usually answers) or processing until it settles (the simulation).
    expect(["processing", status]).toContain(answer.status);
    await settle();
    const settled = await port.retrievePaymentIntent(account, answer.id);
    expect(settled).toMatchObject({ id: answer.id, status, amount: 2_999, decline_code: decline, metadata });
    if (decline) expect(settled.failure_message).toBeTruthy();
    expect(isHardCardDecline(settled)).toBe(hard);
  });

  it("answers the first charge for a repeated idempotency key and refuses the key with another amount", async () => {
    const port = make();
    const card = await savedCard(port, "4242424242424242");
    const input = {
      ...card,
      amount: 5_000,
      currency: "nzd" as const,
      idempotencyKey: key(),
      description: "Retry of the balance",
      metadata: { payment_id: "pay_idem" },
    };
    const first = await port.chargeOffSession(account, input);
    const second = await port.chargeOffSession(account, input);
    expect(second.id).toBe(first.id);
    await expect(port.chargeOffSession(account, { ...input, amount: 5_001 })).rejects.toEqual(
      declined("stripe"),
    );
  });

  it("keeps each connected account's objects to itself", async () => {
    const port = make();
    const card = await savedCard(port, "4242424242424242");
    const charge = await port.chargeOffSession(account, {
      ...card,
      amount: 1_000,
      currency: "nzd",
      idempotencyKey: key(),
      description: "x",
      metadata: {},
    });
    await expect(port.retrievePaymentIntent("acct_1SomeOtherGym", charge.id)).rejects.toEqual(
      declined("stripe"),
    );
    await expect(port.retrievePaymentIntent(account, "pi_unknown")).rejects.toEqual(declined("stripe"));
  });
});

it("real Stripe sends every card call on the connected account, with the idempotency key", () => {
  const charges = stripeStub.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");
  expect(charges.length).toBeGreaterThan(0);
  for (const request of charges) {
    expect(request.headers["stripe-account"]).toBe("acct_1ContractGym");
    expect(request.headers["idempotency-key"]).toMatch(/^contract-/);
    const form = new URLSearchParams(request.body);
    expect(form.get("off_session")).toBe("true");
    expect(form.get("confirm")).toBe("true");
    expect(form.get("currency")).toBe("nzd");
  }
});

it("real Stripe: an answer lost to a 5xx is retried by the SDK with the same key, so one charge", async () => {
  const port = realStripe({
    secretKey: stripeStub.secretKey,
    clientId: "ca_stub",
    webhookSecret: "whsec_stub",
    apiBase: stripeStub.url,
  });
  const account = "acct_1LostAnswer";
  const setup = await port.createSetupIntent(account, {
    email: "a@b.nz",
    name: "A",
    idempotencyKey: "lost-setup",
  });
  stripeStub.confirmSetupIntent(account, setup.setup_intent_id, "4242424242424242");
  const card = await port.retrieveSetupIntent(account, setup.setup_intent_id);
  stripeStub.failNextPost();
  const charge = await port.chargeOffSession(account, {
    customer_id: card.customer_id,
    payment_method_id: card.payment_method_id ?? "",
    amount: 1_500,
    currency: "nzd",
    idempotencyKey: "lost-charge",
    description: "x",
    metadata: {},
  });
  expect(charge.status).toBe("succeeded");
  const sent = stripeStub.requests.filter(
    (r) => r.path === "/v1/payment_intents" && r.headers["idempotency-key"] === "lost-charge",
  );
  expect(sent).toHaveLength(2);
});
