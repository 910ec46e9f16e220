/**
 * Binding provider events to payments (docs/providers.md "Binding events"): a correctly signed
 * event changes a payment only when it names the provider charge the payment holds (the id our
 * own charge call answered). Everything here goes over real HTTP to the public webhook receivers,
 * signed exactly as the provider signs; the simulated Stripe and Akahu take the real charges.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach } from "../../../../../tests/support/ledger";
import {
  addBankAccount,
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../../tests/support/money";

const api = useTestApi();
checkLedgerAfterEach();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");

let world: MoneyWorld;
let core: {
  clock: typeof import("@gym/core/clock");
  jobs: typeof import("@gym/core/jobs/run");
  sim: typeof import("@gym/core/simulators/simulation");
  store: typeof import("@gym/core/payment/store");
  charge: typeof import("@gym/core/payment/charge");
  settle: typeof import("@gym/core/payment/settle");
  subs: typeof import("@gym/core/subscription/store");
  log: typeof import("@gym/core/webhook-log/service");
  db: typeof import("@gym/core/db/service");
};

/** A provider: no cookies, no X-Requested-With. */
const provider = () => new HttpClient(api.url, { xhr: false });
let eventCount = 0;
/** The id of the Stripe event this file sent last. */
let lastEventId = "";

async function stripeEvent(type: string, object: Record<string, unknown>, account = world.stripe_account) {
  const { SIMULATED_STRIPE_WEBHOOK_SECRET } = await import("@gym/core/simulators/stripe");
  const { signStripePayload } = await import("@gym/core/providers/stripe/verify");
  eventCount += 1;
  lastEventId = `evt_binding_${eventCount}_${Date.now()}`;
  const body = JSON.stringify({
    id: lastEventId,
    object: "event",
    type,
    account,
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    data: { object: { object: "payment_intent", currency: "nzd", ...object } },
  });
  return provider().request("POST", "/api/webhooks/stripe", body, {
    "Stripe-Signature": signStripePayload(body, SIMULATED_STRIPE_WEBHOOK_SECRET),
  });
}

async function akahuEvent(payload: Record<string, unknown>) {
  const { signSimulatedAkahuWebhook } = await import("@gym/core/simulators/akahu");
  const body = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", ...payload });
  const { keyId, signature } = signSimulatedAkahuWebhook(body);
  return provider().request("POST", "/api/webhooks/akahu", body, {
    "X-Akahu-Signing-Key": keyId,
    "X-Akahu-Signature": signature,
  });
}

const failedIntent = (id: string, paymentId: string, amount: number) => ({
  id,
  amount,
  status: "requires_payment_method",
  metadata: { payment_id: paymentId, organisation_id: world.organisation_id },
  last_payment_error: { code: "card_declined", decline_code: "insufficient_funds", message: "No funds." },
});

async function payment(paymentId: string) {
  const found = await core.store.findPayment(world.organisation_id, paymentId);
  if (!found) throw new Error("payment missing");
  return found;
}

const chargesOf = (paymentId: string) =>
  core.sim.simulatedLedger().filter((e) => e.idempotency_key === `payment-${paymentId}`);

async function cardMemberCharged(card = "4242424242424242") {
  const user = await addMember(world, `Casey ${eventCount}`);
  await addCard(world, user, card);
  const { subscription, first_payment } = await subscribeMember(world, user);
  await core.jobs.runJob("billing-run", START);
  const charged = await payment(first_payment.payment_id);
  expect(charged.status).toBe("pending_request");
  expect(charged.stripe_id).toMatch(/^pi_/);
  return { user, subscription, payment: charged };
}

/**
 * The webhook log's record of the event this file sent last: found by its event id, not as the
 * newest record (the simulated Stripe's own events for the charge arrive on their own time, and
 * one landing after ours is newer).
 */
async function lastCall() {
  const calls = await core.log.listWebhookCalls(world.organisation_id, { per_page: 50 });
  const ours = calls.data.find((call: { event_id: string | null }) => call.event_id === lastEventId);
  if (!ours) throw new Error(`no webhook call recorded for ${lastEventId}`);
  return ours;
}

beforeAll(async () => {
  core = {
    clock: await import("@gym/core/clock"),
    jobs: await import("@gym/core/jobs/run"),
    sim: await import("@gym/core/simulators/simulation"),
    store: await import("@gym/core/payment/store"),
    charge: await import("@gym/core/payment/charge"),
    settle: await import("@gym/core/payment/settle"),
    subs: await import("@gym/core/subscription/store"),
    log: await import("@gym/core/webhook-log/service"),
    db: await import("@gym/core/db/service"),
  };
  world = await moneyWorld({ name: "Binding Gyms" });
});

beforeEach(async () => {
  core.sim.resetSimulatedProviders();
  // Settlement only when the test says so.
  core.sim.setSimulatedChaos({ settleDelayMs: 3_600_000 });
  await core.clock.setBusinessClock(START);
});

describe("Stripe events are bound to the PaymentIntent the payment holds", () => {
  it("a signed payment_failed for another PaymentIntent, with metadata naming our payment, is refused and changes nothing; the genuine success then settles it", async () => {
    const { payment: before, subscription } = await cardMemberCharged();
    const answer = await stripeEvent(
      "payment_intent.payment_failed",
      failedIntent("pi_someoneElses", before.payment_id, before.amount + before.surcharge),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ received: true, outcome: "refused" });
    const after = await payment(before.payment_id);
    expect(after).toMatchObject({ status: "pending_request", stripe_id: before.stripe_id });
    expect(after.version).toBe(before.version);
    expect(await lastCall()).toMatchObject({ outcome: "refused", status_code: 200 });
    expect((await lastCall()).detail).toContain("pi_someoneElses");

    await core.sim.settleSimulatedNow();
    expect((await payment(before.payment_id)).status).toBe("sent");
    const sub = await core.subs.findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.balance_owing).toBe(0);
    expect(chargesOf(before.payment_id)).toHaveLength(1);
  });

  it("a replayed event: another member's genuine failure, re-sent with its metadata pointed at our payment, is refused", async () => {
    const declined = await cardMemberCharged("4000000000009995");
    await core.sim.settleSimulatedNow();
    expect((await payment(declined.payment.payment_id)).status).toBe("failed");
    const ours = await cardMemberCharged();
    const answer = await stripeEvent(
      "payment_intent.payment_failed",
      failedIntent(
        declined.payment.stripe_id as string,
        ours.payment.payment_id,
        ours.payment.amount + ours.payment.surcharge,
      ),
    );
    expect(answer.body.outcome).toBe("refused");
    expect((await payment(ours.payment.payment_id)).stripe_id).toBe(ours.payment.stripe_id);
    await core.sim.settleSimulatedNow();
    expect((await payment(ours.payment.payment_id)).status).toBe("sent");
  });

  it("an event for our PaymentIntent whose amount is not what we charged is refused", async () => {
    const { payment: before } = await cardMemberCharged();
    const answer = await stripeEvent("payment_intent.succeeded", {
      id: before.stripe_id,
      amount: 1,
      status: "succeeded",
      metadata: { payment_id: before.payment_id, organisation_id: world.organisation_id },
    });
    expect(answer.body.outcome).toBe("refused");
    expect((await payment(before.payment_id)).status).toBe("pending_request");
  });

  it("a late event after settlement (the same PaymentIntent, now claiming failure) changes nothing", async () => {
    const { payment: before, subscription } = await cardMemberCharged();
    await core.sim.settleSimulatedNow();
    const settled = await payment(before.payment_id);
    expect(settled.status).toBe("sent");
    const answer = await stripeEvent(
      "payment_intent.payment_failed",
      failedIntent(before.stripe_id as string, before.payment_id, before.amount + before.surcharge),
    );
    expect(answer.status).toBe(200);
    const after = await payment(before.payment_id);
    expect(after.status).toBe("sent");
    expect(after.version).toBe(settled.version);
    const sub = await core.subs.findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.balance_owing).toBe(0);
  });

  it("an event arriving a moment before our write of the charge's answer waits for it and settles the payment (a CI run's join page waited for ever)", async () => {
    const user = await addMember(world, "Riley Early");
    await addCard(world, user, "4242424242424242");
    const { first_payment } = await subscribeMember(world, user);
    // The charge is taken; our write of its answer is still on its way when Stripe's event lands.
    let late: Promise<unknown> | undefined;
    core.charge.chargeHooks.afterProviderCall = (charged, outcome) => {
      core.charge.chargeHooks.afterProviderCall = undefined;
      late = new Promise((resolve) => setTimeout(resolve, 400)).then(() =>
        core.settle.applyOutcome(charged, outcome, { snapshot: charged, source: "charge" }),
      );
      throw new Error("the answer's write is slow");
    };
    await core.jobs.runJob("billing-run", START);
    const [taken] = chargesOf(first_payment.payment_id);
    expect((await payment(first_payment.payment_id)).stripe_id).toBeUndefined();
    const answer = await stripeEvent("payment_intent.succeeded", {
      id: taken.provider_id,
      amount: taken.amount,
      status: "succeeded",
      metadata: { payment_id: first_payment.payment_id, organisation_id: world.organisation_id },
    });
    await late;
    expect(answer.body.outcome).toBe("accepted");
    expect(await payment(first_payment.payment_id)).toMatchObject({
      status: "sent",
      stripe_id: taken.provider_id,
    });
    expect(chargesOf(first_payment.payment_id)).toHaveLength(1);
  });

  it("an event arriving before we recorded the PaymentIntent is refused; polling settles the payment from its own charge", async () => {
    const user = await addMember(world, "Robin Race");
    await addCard(world, user, "4242424242424242");
    const { first_payment } = await subscribeMember(world, user);
    // The charge is taken, but our write of its answer never lands.
    core.charge.chargeHooks.afterProviderCall = () => {
      core.charge.chargeHooks.afterProviderCall = undefined;
      throw new Error("simulated crash");
    };
    await core.jobs.runJob("billing-run", START);
    core.charge.chargeHooks.afterProviderCall = undefined;
    const unrecorded = await payment(first_payment.payment_id);
    expect(unrecorded.stripe_id).toBeUndefined();
    const [taken] = chargesOf(first_payment.payment_id);
    const answer = await stripeEvent("payment_intent.succeeded", {
      id: taken.provider_id,
      amount: taken.amount,
      status: "succeeded",
      metadata: { payment_id: first_payment.payment_id, organisation_id: world.organisation_id },
    });
    expect(answer.body.outcome).toBe("refused");
    expect((await payment(first_payment.payment_id)).stripe_id).toBeUndefined();

    await core.sim.settleSimulatedNow();
    await core.clock.setBusinessClock(new Date(START.getTime() + 11 * 60_000));
    await core.jobs.runJob("payment-polling");
    await core.jobs.runJob("payment-polling");
    const settled = await payment(first_payment.payment_id);
    expect(settled).toMatchObject({ status: "sent", stripe_id: taken.provider_id });
    expect(chargesOf(first_payment.payment_id)).toHaveLength(1);
  });
});

describe("Akahu events are bound to the Akahu payment the payment holds", () => {
  async function bankMemberCharged() {
    const user = await addMember(world, `Bailey ${eventCount}`);
    await addBankAccount(world, user, "pays");
    const { first_payment } = await subscribeMember(world, user);
    await core.jobs.runJob("billing-run", START);
    const charged = await payment(first_payment.payment_id);
    expect(charged.status).toBe("pending_request");
    expect(charged.akahu_id).toBeTruthy();
    return charged;
  }

  it("an update for an Akahu payment the payment no longer holds (its reference kept) is refused", async () => {
    const before = await bankMemberCharged();
    // An earlier Akahu payment of ours for the same payment, superseded (e.g. Akahu's key expired).
    await core.db
      .db()
      .entities.paymentRef.put({
        provider: "akahu",
        external_id: "payment_superseded1",
        organisation_id: world.organisation_id,
        payment_id: before.payment_id,
        created_at: START.toISOString(),
      })
      .go();
    const answer = await akahuEvent({
      state: world.organisation_id,
      item_id: "payment_superseded1",
      status: "DECLINED",
      status_code: "INSUFFICIENT_FUNDS",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.outcome).toBe("refused");
    const after = await payment(before.payment_id);
    expect(after).toMatchObject({ status: "pending_request", akahu_id: before.akahu_id });
    await core.sim.settleSimulatedNow();
    expect((await payment(before.payment_id)).status).toBe("sent");
  });

  it("an update whose state is not the payment's organisation is refused", async () => {
    const before = await bankMemberCharged();
    const answer = await akahuEvent({ state: null, item_id: before.akahu_id, status: "DECLINED" });
    expect(answer.body.outcome).toBe("refused");
    expect((await payment(before.payment_id)).status).toBe("pending_request");
  });
});
