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
import {
  SIMULATED_AKAHU_KEY_ID,
  signSimulatedAkahuWebhook,
  simulatedAkahu,
  simulatedAkahuCode,
} from "../simulators/akahu";
import { simulatedBranch } from "../simulators/branch";
import { disableSimulatedKisiMember, recordSimulatedKisiEvent, simulatedKisi } from "../simulators/kisi";
import { resetSimulatedProviders, settleSimulatedNow } from "../simulators/simulation";
import { SIMULATED_STRIPE_WEBHOOK_SECRET, simulatedStripe, simulatedStripeCode } from "../simulators/stripe";
import { paySimulatedStripePayouts } from "../simulators/stripe-payouts";
import {
  type AkahuApp,
  type AkahuPort,
  centsToDollars,
  dollarsToCents,
  isHardBankFailure,
} from "./akahu/port";
import { realAkahu } from "./akahu/real";
import type { BranchPort } from "./branch/port";
import { realBranch } from "./branch/real";
import { ProviderError } from "./errors";
import type { KisiPort } from "./kisi/port";
import { realKisi } from "./kisi/real";
import { isHardCardDecline, type StripePort, WebhookSignatureError } from "./stripe/port";
import { realStripe } from "./stripe/real";
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
  it("builds the consent URL with the state and return address", async () => {
    const url = new URL(
      await make().connectUrl({
        state: "signed-state",
        redirectUri: "http://localhost:3000/stripe/callback",
      }),
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

  it("verifies webhook signatures over the raw body", async () => {
    const port = make();
    const body = JSON.stringify({
      id: "evt_1",
      type: "account.updated",
      account: "acct_1",
      livemode: false,
      created: 1,
      data: { object: {} },
    });
    expect((await port.verifyWebhook(body, signStripePayload(body, secret))).type).toBe("account.updated");
    await expect(port.verifyWebhook(`${body} `, signStripePayload(body, secret))).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(port.verifyWebhook(body, signStripePayload(body, "whsec_other"))).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(port.verifyWebhook(body, undefined)).rejects.toBeInstanceOf(WebhookSignatureError);
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
    await expect(make().getEvent("wrong", "8001")).rejects.toEqual(declined("kisi"));
  });

  it("confirms an event Kisi recorded, with its place and lock, and knows no other", async () => {
    const port = make();
    if (port.mode === "simulated")
      recordSimulatedKisiEvent({
        id: "8001",
        action: "unlock",
        object_type: "Lock",
        place_id: "9001",
        lock_id: "7001",
      });
    expect(await port.getEvent(key(), "8001")).toMatchObject({
      id: "8001",
      action: "unlock",
      object_type: "Lock",
      place_id: "9001",
      lock_id: "7001",
    });
    expect(await port.getEvent(key(), "999999")).toBeNull();
    expect(await port.getEvent(key(), "../places")).toBeNull();
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
    payOut: (account: string) => stripeStub.payOut(account, 97, 1_796_000_000),
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
    payOut: (account: string) =>
      paySimulatedStripePayouts("2026-12-03", SIMULATED_STRIPE_WEBHOOK_SECRET).find(
        (p) => p.account === account,
      )?.payout.id ?? "",
  },
])("Stripe saved cards and off-session charges: $name", ({ make, confirmCard, settle, payOut }) => {
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
      card: {
        brand: "visa",
        last4: "4242",
        exp_month: expect.any(Number),
        exp_year: expect.any(Number),
        fingerprint: expect.any(String),
      },
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

  it("answers a payout with the charges inside it: each one's PaymentIntent, metadata, fee and net", async () => {
    const port = make();
    const card = await savedCard(port, "4242424242424242");
    const charge = await port.chargeOffSession(account, {
      ...card,
      amount: 4_321,
      currency: "nzd",
      idempotencyKey: key(),
      description: "payout",
      metadata: { payment_id: "pay_payout", organisation_id: "org_1" },
    });
    await settle();
    const payoutId = payOut(account);
    expect(payoutId).toMatch(/^po_/);
    const payout = await port.retrievePayout(account, payoutId);
    expect(payout).toMatchObject({ id: payoutId, status: "paid" });
    const inside = payout.charges.find((c) => c.payment_intent === charge.id);
    expect(inside).toMatchObject({
      amount: 4_321,
      metadata: { payment_id: "pay_payout", organisation_id: "org_1" },
    });
    expect(inside!.fee).toBeGreaterThan(0);
    expect(inside!.net).toBe(4_321 - inside!.fee);
    expect(payout.amount).toBe(payout.charges.reduce((s, c) => s + c.net, 0));
    await expect(port.retrievePayout(account, "po_unknown")).rejects.toEqual(declined("stripe"));
    await expect(port.retrievePayout("acct_1SomeOtherGym", payoutId)).rejects.toEqual(declined("stripe"));
  });

  it("lists the account's payouts arriving since a time, without their charges", async () => {
    const port = make();
    const card = await savedCard(port, "4242424242424242");
    await port.chargeOffSession(account, {
      ...card,
      amount: 2_500,
      currency: "nzd",
      idempotencyKey: key(),
      description: "listed payout",
      metadata: {},
    });
    await settle();
    const payoutId = payOut(account);
    const { arrival_date, amount } = await port.retrievePayout(account, payoutId);
    const listed = await port.listPayouts(account, arrival_date);
    expect(listed).toContainEqual({ id: payoutId, status: "paid", amount, arrival_date });
    expect(await port.listPayouts(account, arrival_date + 1)).not.toContainEqual(
      expect.objectContaining({ id: payoutId }),
    );
    expect(await port.listPayouts("acct_1SomeOtherGym", 0)).toEqual([]);
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

describe.each([
  {
    name: "real (Akahu SDK against the stand-in)",
    make: (): { port: AkahuPort; app: AkahuApp } => ({
      port: realAkahu({ platformApp: akahuStub.app, apiBase: akahuStub.url }),
      app: akahuStub.app,
    }),
    code: () => akahuStub.issueCode(),
    settle: async () => {},
  },
  {
    name: "simulated",
    make: () => ({ port: simulatedAkahu(), app: { appToken: "app_token_x", appSecret: "s" } }),
    code: () => simulatedAkahuCode(`payments-${Math.random()}`),
    settle: async () => {
      await settleSimulatedNow();
    },
  },
])("Akahu bank payments: $name", ({ make, code, settle }) => {
  const to = { name: "Ponsonby Fitness Ltd", account_number: "12-3140-0171323-50" };
  let n = 0;
  const key = () => `akahu-contract-${Date.now()}-${++n}`;

  beforeAll(() => resetSimulatedProviders());

  async function member() {
    const { port, app } = make();
    const { accessToken } = await port.exchange(app, {
      code: code(),
      redirectUri: "http://localhost:3001/x",
    });
    const accounts = await port.listAccounts(app, accessToken);
    const named = (name: string) => {
      const found = accounts.find((a) => a.name === name);
      if (!found) throw new Error(`no account named ${name}`);
      return found.id;
    };
    return { port, app, token: accessToken, named };
  }

  it("offers accounts that pay, lack funds, are closed and settle slowly", async () => {
    const { named } = await member();
    for (const name of ["Everyday", "Low balance", "Closed account", "Slow bank"])
      expect(named(name)).toMatch(/^acc_/);
  });

  it("subscribes the member's token to payment webhooks", async () => {
    const { port, app, token } = await member();
    expect(
      (await port.subscribeWebhooks(app, token, { webhook_type: "PAYMENT", state: "01ORG" })).webhook_id,
    ).toBeTruthy();
  });

  it.each([
    { account: "Everyday", status: "SENT", code: null, hard: false },
    { account: "Low balance", status: "DECLINED", code: "INSUFFICIENT_FUNDS", hard: false },
    { account: "Closed account", status: "DECLINED", code: "INVALID_ACCOUNT", hard: true },
  ])("pays from $account: $status $code", async ({ account, status, code: statusCode, hard }) => {
    const { port, app, token, named } = await member();
    const reference = { particulars: "P01JD5K2ABCD", code: "FITNESS", reference: "JAN 1-7" };
    const created = await port.createPayment(app, token, {
      from_account: named(account),
      to,
      amount: 2_999,
      reference,
      idempotencyKey: key(),
    });
    expect(created).toMatchObject({
      amount: 2_999,
      final: false,
      meta: reference,
      from_account: named(account),
    });
    expect(["READY", "PENDING_APPROVAL"]).toContain(created.status);
    expect(created.id).toMatch(/^payment_/);
    expect(created.sid).toBeTruthy();
    await settle();
    const settled = await port.getPayment(app, token, created.id);
    expect(settled).toMatchObject({
      id: created.id,
      status,
      final: true,
      status_code: statusCode,
      amount: 2_999,
    });
    expect(isHardBankFailure(settled)).toBe(hard);
  });

  it("the slow bank's payment is pending for two polls and sent on the third", async () => {
    const { port, app, token, named } = await member();
    const created = await port.createPayment(app, token, {
      from_account: named("Slow bank"),
      to,
      amount: 1_000,
      reference: { particulars: "P1", code: "", reference: "" },
      idempotencyKey: key(),
    });
    await settle();
    expect(await port.getPayment(app, token, created.id)).toMatchObject({
      status: "PENDING_APPROVAL",
      final: false,
    });
    expect(await port.getPayment(app, token, created.id)).toMatchObject({
      status: "PENDING_APPROVAL",
      final: false,
    });
    expect(await port.getPayment(app, token, created.id)).toMatchObject({ status: "SENT", final: true });
  });

  it("answers the first payment for a repeated Idempotency-Key and refuses the key with another amount", async () => {
    const { port, app, token, named } = await member();
    const input = {
      from_account: named("Everyday"),
      to,
      amount: 4_550,
      reference: { particulars: "P2", code: "", reference: "" },
      idempotencyKey: key(),
    };
    const first = await port.createPayment(app, token, input);
    expect((await port.createPayment(app, token, input)).id).toBe(first.id);
    await expect(port.createPayment(app, token, { ...input, amount: 4_551 })).rejects.toEqual(
      declined("akahu"),
    );
  });

  it("lists the member's payments in a time range, for recovery after the key expired", async () => {
    const { port, app, token, named } = await member();
    const created = await port.createPayment(app, token, {
      from_account: named("Everyday"),
      to,
      amount: 1_234,
      reference: { particulars: "PRECOVER", code: "", reference: "" },
      idempotencyKey: key(),
    });
    const hour = 60 * 60 * 1000;
    const around = await port.listPayments(app, token, {
      start: new Date(Date.now() - hour).toISOString(),
      end: new Date(Date.now() + hour).toISOString(),
    });
    expect(around.find((p) => p.meta.particulars === "PRECOVER")).toMatchObject({
      id: created.id,
      amount: 1_234,
    });
    const before = await port.listPayments(app, token, {
      start: new Date(Date.now() - 3 * hour).toISOString(),
      end: new Date(Date.now() - 2 * hour).toISOString(),
    });
    expect(before.find((p) => p.id === created.id)).toBeUndefined();
  });

  it("declines an account that is not the member's and a token Akahu does not know", async () => {
    const { port, app, token } = await member();
    const input = {
      from_account: "acc_not_theirs",
      to,
      amount: 100,
      reference: { particulars: "", code: "", reference: "" },
      idempotencyKey: key(),
    };
    await expect(port.createPayment(app, token, input)).rejects.toEqual(declined("akahu"));
    await expect(port.getPayment(app, "user_token_unknown", "payment_x")).rejects.toEqual(declined("akahu"));
  });
});

it("real Akahu sends the payment in dollars with the Idempotency-Key header and the app id", async () => {
  const sent = akahuStub.requests.filter((r) => r.method === "POST" && r.path === "/v1/payments");
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) {
    expect(request.headers["idempotency-key"]).toMatch(/^akahu-contract-/);
    expect(request.headers["x-akahu-id"]).toBe(akahuStub.app.appToken);
  }
  expect(JSON.parse(sent[0].body)).toMatchObject({
    amount: 29.99,
    to: { account_number: "12-3140-0171323-50" },
    meta: { destination: { particulars: "P01JD5K2ABCD", code: "FITNESS", reference: "JAN 1-7" } },
  });
});

it("real Akahu: an answer lost to a 5xx is an unavailable ProviderError, and the same key then answers the one payment", async () => {
  const port = realAkahu({ platformApp: akahuStub.app, apiBase: akahuStub.url });
  const { accessToken } = await port.exchange(akahuStub.app, {
    code: akahuStub.issueCode(),
    redirectUri: "x",
  });
  const input = {
    from_account: "acc_stub1",
    to: { name: "Gym", account_number: "12-3140-0171323-50" },
    amount: 2_000,
    reference: { particulars: "PLOST", code: "", reference: "" },
    idempotencyKey: "akahu-lost-answer",
  };
  akahuStub.failNextPayment();
  await expect(port.createPayment(akahuStub.app, accessToken, input)).rejects.toEqual(
    expect.objectContaining({ provider: "akahu", kind: "unavailable" }),
  );
  const again = await port.createPayment(akahuStub.app, accessToken, input);
  const all = await port.listPayments(akahuStub.app, accessToken, {
    start: new Date(Date.now() - 60_000).toISOString(),
    end: new Date(Date.now() + 60_000).toISOString(),
  });
  expect(all.filter((p) => p.meta.particulars === "PLOST").map((p) => p.id)).toEqual([again.id]);
});

describe("Akahu amounts: cents and dollars convert exactly", () => {
  it.each([
    [0, 0],
    [1, 0.01],
    [10, 0.1],
    [29, 0.29],
    [2_999, 29.99],
    [100_000, 1000],
    [123_456_789, 1_234_567.89],
  ])("%i cents is $%d", (cents, dollars) => {
    expect(centsToDollars(cents)).toBe(dollars);
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it("round-trips every cent value up to $100,000 sampled, and refuses fractions of a cent", () => {
    for (let cents = 0; cents <= 10_000_000; cents += 997) {
      const dollars = centsToDollars(cents);
      expect(String(dollars)).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(dollarsToCents(dollars)).toBe(cents);
    }
    expect(() => centsToDollars(1.5)).toThrow(RangeError);
    expect(() => dollarsToCents("1.234")).toThrow(RangeError);
    expect(dollarsToCents("12.5")).toBe(1_250);
  });
});

describe.each([
  {
    name: "real (REST against the stand-in)",
    make: (): KisiPort => realKisi({ apiBase: kisiStub.url }),
    key: () => kisiStub.apiKey,
    disable: (email: string) => kisiStub.disableMember(email),
  },
  {
    name: "simulated",
    make: (): KisiPort => simulatedKisi(),
    key: () => "kisi_simulated_key",
    disable: (email: string) => disableSimulatedKisiMember("kisi_simulated_key", email),
  },
])("Kisi member access: $name", ({ make, key, disable }) => {
  let n = 0;
  const email = () => `member${++n}.${Date.now()}@example.com`;

  it("grants access once, answers truthfully, and revokes it (each step idempotent)", async () => {
    const port = make();
    const [place, other] = await port.listPlaces(key());
    const who = email();
    const input = { place_id: place.id, email: who, name: "Tama Member", external_id: `user_${n}` };
    expect(await port.memberAccess(key(), { place_id: place.id, email: who })).toEqual({
      has_access: false,
      credential_ids: [],
    });
    const granted = await port.ensureMemberAccess(key(), input);
    expect(granted.user_id).toBeTruthy();
    expect(granted.group_or_credential_id).toBeTruthy();
    expect(await port.ensureMemberAccess(key(), input)).toEqual(granted);
    expect(await port.memberAccess(key(), { place_id: place.id, email: who })).toEqual({
      has_access: true,
      credential_ids: [granted.group_or_credential_id],
    });
    expect((await port.memberAccess(key(), { place_id: other.id, email: who })).has_access).toBe(false);

    await port.revokeMemberAccess(key(), { place_id: place.id, external_id: input.external_id, email: who });
    await port.revokeMemberAccess(key(), { place_id: place.id, external_id: input.external_id, email: who });
    expect(await port.memberAccess(key(), { place_id: place.id, email: who })).toEqual({
      has_access: false,
      credential_ids: [],
    });
    // Granting again after a revoke works, for the same Kisi user.
    expect((await port.ensureMemberAccess(key(), input)).user_id).toBe(granted.user_id);
  });

  it("keeps a person's Kisi user id across a restart, and gives two people two ids", async () => {
    const port = make();
    const [place] = await port.listPlaces(key());
    const who = email();
    const input = { place_id: place.id, email: who, name: "Same", external_id: "same" };
    const first = await port.ensureMemberAccess(key(), input);
    // The simulator's memory cleared, as a new process starts (an e2e product on a seeded copy).
    if (port.mode === "simulated") resetSimulatedProviders();
    expect((await port.ensureMemberAccess(key(), input)).user_id).toBe(first.user_id);
    const other = await port.ensureMemberAccess(key(), { ...input, email: email(), external_id: "other" });
    expect(other.user_id).not.toBe(first.user_id);
  });

  it("grants at two places independently", async () => {
    const port = make();
    const [first, second] = await port.listPlaces(key());
    const who = email();
    for (const place of [first, second])
      await port.ensureMemberAccess(key(), {
        place_id: place.id,
        email: who,
        name: "Two",
        external_id: "u2",
      });
    await port.revokeMemberAccess(key(), { place_id: first.id, email: who, external_id: "u2" });
    expect((await port.memberAccess(key(), { place_id: first.id, email: who })).has_access).toBe(false);
    expect((await port.memberAccess(key(), { place_id: second.id, email: who })).has_access).toBe(true);
  });

  it("revoking someone Kisi never saw is fine; a member disabled in Kisi has no access", async () => {
    const port = make();
    const [place] = await port.listPlaces(key());
    await port.revokeMemberAccess(key(), { place_id: place.id, email: email(), external_id: "nobody" });
    const who = email();
    await port.ensureMemberAccess(key(), { place_id: place.id, email: who, name: "D", external_id: "d" });
    disable(who);
    expect((await port.memberAccess(key(), { place_id: place.id, email: who })).has_access).toBe(false);
  });

  it("declines an unknown place and a key Kisi does not accept", async () => {
    const port = make();
    const input = { place_id: "404404", email: email(), name: "X", external_id: "x" };
    await expect(port.ensureMemberAccess(key(), input)).rejects.toEqual(declined("kisi"));
    await expect(port.memberAccess("wrong", input)).rejects.toEqual(declined("kisi"));
  });
});

it("real Kisi creates the place's Members group with the place's locks when it is missing", () => {
  const created = kisiStub.requests.filter((r) => r.method === "POST" && r.path === "/groups");
  expect(created.map((r) => JSON.parse(r.body).group.name)).toContain("Members");
  const locks = kisiStub.requests.filter((r) => r.method === "POST" && r.path === "/group_locks");
  expect(locks.map((r) => JSON.parse(r.body).group_lock.lock_id).sort()).toEqual([7001, 7002]);
});
