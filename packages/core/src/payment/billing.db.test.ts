/**
 * The money engine's guarantees, end to end against DynamoDB Local, the simulated Stripe and
 * Akahu (their ledger counts charges per idempotency key) and the real webhook receivers.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { checkLedgerAfterEach } from "../../../../tests/support/ledger";
import {
  addBankAccount,
  addCard,
  addMember,
  KISI_KEY,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
  worldAdmin,
} from "../../../../tests/support/money";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { listOutbox } from "../email/port";
import { runJob } from "../jobs/run";
import { kisiProvider, setKisiProvider } from "../providers/kisi/index";
import { stripeProvider } from "../providers/stripe/index";
import {
  resetSimulatedProviders,
  setSimulatedChaos,
  settleSimulatedNow,
  simulatedLedger,
} from "../simulators/simulation";
import { findSubscription } from "../subscription/store";
import { chargeHooks } from "./charge";
import { billingRun } from "./jobs/billing-run";
import { paymentPolling } from "./jobs/payment-polling";
import { findPayment, type PaymentRecord } from "./store";

const api = useTestApi();
checkLedgerAfterEach();
const DAY = 86_400_000;
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");

let world: MoneyWorld;
let clock = START;
async function at(instant: Date) {
  clock = instant;
  await setBusinessClock(instant);
}
const later = (ms: number) => at(new Date(clock.getTime() + ms));

beforeAll(async () => {
  world = await moneyWorld();
});

beforeEach(async () => {
  resetSimulatedProviders();
  chargeHooks.afterProviderCall = undefined;
  await at(START);
});

afterEach(() => {
  chargeHooks.afterProviderCall = undefined;
});

async function member(card: string, name = "Casey Card") {
  const user = await addMember(world, name);
  await addCard(world, user, card);
  const { subscription, first_payment } = await subscribeMember(world, user);
  return { user, subscription, payment: first_payment };
}

async function payment(p: PaymentRecord) {
  const found = await findPayment(p.organisation_id, p.payment_id);
  if (!found) throw new Error("payment missing");
  return found;
}

const chargesOf = (p: PaymentRecord) =>
  simulatedLedger().filter((e) => e.idempotency_key === `payment-${p.payment_id}`);

describe("claiming", () => {
  it("two billing runs at once charge each due payment once, and each leaves exactly one upcoming payment ahead", async () => {
    const members = await Promise.all([1, 2, 3, 4, 5].map((n) => member("4242424242424242", `Dana ${n}`)));
    const [a, b] = await Promise.all([billingRun(clock), billingRun(clock)]);
    expect(a.claimed + b.claimed).toBe(5);
    // A run that queries after the other claimed sees nothing left to lose (the due index is
    // sparse), so how many claims were lost depends on timing; never more than one per payment.
    expect(a.lost + b.lost).toBeLessThanOrEqual(5);
    for (const m of members) expect(chargesOf(m.payment)).toHaveLength(1);
    await settleSimulatedNow();
    for (const m of members) {
      expect((await payment(m.payment)).status).toBe("sent");
      const { data } = await db()
        .entities.payment.query.byMember({ organisation_id: world.organisation_id, user_id: m.user.user_id })
        .go();
      expect(data.filter((p) => p.status === "upcoming")).toHaveLength(1);
      const sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
      expect(sub?.upcoming_payment_id).toBe(data.find((p) => p.status === "upcoming")?.payment_id);
      expect(sub?.payments_sum).toBe(6000);
    }
    // A third run finds nothing due.
    expect((await billingRun(clock)).due).toBe(0);
  });

  it("a crash after the provider accepted the charge and before our write ends, after the next run, with one charge and sent", async () => {
    const m = await member("4242424242424242");
    // No webhook may rescue it: only our own recovery.
    setSimulatedChaos({ dropWebhooks: 1, seed: 1 });
    chargeHooks.afterProviderCall = () => {
      chargeHooks.afterProviderCall = undefined;
      throw new Error("simulated crash");
    };
    await billingRun(clock);
    const stuck = await payment(m.payment);
    expect(stuck.status).toBe("pending_request");
    expect(stuck.charged_at).toBeUndefined();
    expect(chargesOf(m.payment)).toHaveLength(1);
    // Too early to re-drive: the charge may still be under way.
    expect((await paymentPolling(clock)).redriven).toBe(0);
    await later(11 * 60_000);
    expect((await runJob("payment-polling")).summary.redriven).toBe(1);
    const recorded = await payment(m.payment);
    expect(recorded.stripe_id).toBe(chargesOf(m.payment)[0].provider_id);
    await settleSimulatedNow();
    await runJob("payment-polling");
    expect((await payment(m.payment)).status).toBe("sent");
    expect(chargesOf(m.payment)).toHaveLength(1);
    expect(chargesOf(m.payment)[0].taken).toBe(true);
  });
});

describe("settlement", () => {
  it("a provider timeout leaves the payment pending; polling re-drives with the same key and it settles", async () => {
    const m = await member("4242424242424242");
    setSimulatedChaos({ timeoutNextCharge: true });
    await billingRun(clock);
    expect((await payment(m.payment)).status).toBe("pending_request");
    await later(11 * 60_000);
    await runJob("payment-polling");
    await settleSimulatedNow();
    // The provider's event may arrive before the re-drive recorded its PaymentIntent; it is then
    // refused (docs/providers.md "Binding events") and the next poll settles the payment.
    await runJob("payment-polling");
    expect((await payment(m.payment)).status).toBe("sent");
    expect(chargesOf(m.payment)).toHaveLength(1);
  });

  it("a dropped webhook: polling asks the provider and settles the payment", async () => {
    const m = await member("4242424242424242");
    setSimulatedChaos({ dropWebhooks: 1, seed: 7 });
    await billingRun(clock);
    await settleSimulatedNow();
    const pending = await payment(m.payment);
    expect(pending.status).toBe("pending_request");
    expect(pending.stripe_id).toMatch(/^pi_/);
    const polled = await runJob("payment-polling");
    expect(polled.summary.settled).toBe(1);
    expect((await payment(m.payment)).status).toBe("sent");
  });

  it("duplicate and out-of-order webhooks leave the right final statuses", async () => {
    const pays = await member("4242424242424242", "Pat Pays");
    const fails = await member("4000000000000341", "Fran Fails");
    setSimulatedChaos({ duplicateWebhooks: 1, reorderWebhooks: true, seed: 3 });
    await billingRun(clock);
    await settleSimulatedNow();
    expect((await payment(pays.payment)).status).toBe("sent");
    const failed = await payment(fails.payment);
    expect(failed.status).toBe("failed");
    expect(failed.error_status).toBe("generic_decline");
    const sub = await findSubscription(world.organisation_id, fails.subscription.subscription_id);
    expect(sub?.balance_owing).toBe(6000);
    expect(sub?.periods_owing).toBe(1);
  });

  it("a forged webhook is refused (400) and changes nothing", async () => {
    setSimulatedChaos({ settleDelayMs: 600_000 });
    const m = await member("4242424242424242");
    await billingRun(clock);
    const before = await payment(m.payment);
    const body = JSON.stringify({
      id: "evt_forged",
      type: "payment_intent.payment_failed",
      account: world.stripe_account,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: before.stripe_id,
          status: "requires_payment_method",
          metadata: { payment_id: before.payment_id, organisation_id: world.organisation_id },
          last_payment_error: { decline_code: "lost_card" },
        },
      },
    });
    const response = await fetch(`${api.url}/api/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=deadbeef" },
      body,
    });
    expect(response.status).toBe(400);
    const after = await payment(m.payment);
    expect(after.status).toBe("pending_request");
    expect(after.version).toBe(before.version);
    await settleSimulatedNow();
    expect((await payment(m.payment)).status).toBe("sent");
  });

  it("bank payments settle by webhook; the slow bank account is settled by polling", async () => {
    const user = await addMember(world, "Bailey Bank");
    await addBankAccount(world, user, "pays");
    const { first_payment } = await subscribeMember(world, user);
    const slowUser = await addMember(world, "Sam Slow");
    await addBankAccount(world, slowUser, "slow");
    const slow = await subscribeMember(world, slowUser);
    await billingRun(clock);
    await settleSimulatedNow();
    const paid = await payment(first_payment);
    expect(paid.status).toBe("sent");
    expect(paid.akahu_id).toBeTruthy();
    expect(chargesOf(first_payment)[0].meta.particulars).toBe(first_payment.payment_id.slice(-12));
    expect((await payment(slow.first_payment)).status).toBe("pending_request");
    for (let poll = 0; poll < 4; poll++) await runJob("payment-polling");
    await settleSimulatedNow();
    expect((await payment(slow.first_payment)).status).toBe("sent");
  });
});

describe("dunning", () => {
  it("a failure, two failed retries and a successful third clear the debt and the grace", async () => {
    const m = await member("4000000000009995", "Robin Retry");
    await billingRun(clock);
    await settleSimulatedNow();
    let sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
    expect(sub?.balance_owing).toBe(6000);
    expect(sub?.periods_owing).toBe(1);
    expect(sub?.grace_period_ends_at).toBe("2026-12-14T11:00:00.000Z");
    expect(sub?.next_retry_on).toBe("2026-12-02");
    const failedMail = (await listOutbox()).find((mail) => mail.to === m.user.email);
    expect(failedMail?.subject).toContain("didn't go through");
    expect(failedMail?.text).toContain("Wednesday, 2 December 2026");

    for (const [day, next] of [
      [1, "2026-12-04"],
      [3, "2026-12-06"],
    ] as const) {
      await at(new Date(START.getTime() + day * DAY));
      expect((await runJob("payment-retries")).summary.retried).toBeGreaterThanOrEqual(1);
      await settleSimulatedNow();
      sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
      expect(sub?.balance_owing).toBe(6000);
      expect(sub?.next_retry_on).toBe(next);
      expect(sub?.retries_done).toBe(day === 1 ? 1 : 2);
    }
    // The member tops up: the saved card now pays (the same payment type, not a switch).
    const types = await db()
      .entities.paymentType.query.primary({ organisation_id: world.organisation_id, user_id: m.user.user_id })
      .go();
    const original = types.data.find((t) => t.payment_type_id === m.subscription.payment_type_id);
    const stripe = stripeProvider();
    const setup = await stripe.createSetupIntent(world.stripe_account, {
      customer_id: original?.stripe_customer_id,
      email: m.user.email,
      name: m.user.name,
      idempotencyKey: "top-up",
    });
    const confirmed = await stripe.confirmSimulatedCard?.(world.stripe_account, setup.setup_intent_id, {
      number: "4242424242424242",
    });
    await db()
      .entities.paymentType.patch({
        organisation_id: world.organisation_id,
        user_id: m.user.user_id,
        payment_type_id: original!.payment_type_id,
      })
      .set({ stripe_payment_method_id: confirmed!.payment_method_id! })
      .go();
    await at(new Date(START.getTime() + 5 * DAY));
    expect((await runJob("payment-retries")).summary.retried).toBeGreaterThanOrEqual(1);
    await settleSimulatedNow();
    sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
    expect(sub?.balance_owing).toBe(0);
    expect(sub?.periods_owing).toBe(0);
    expect(sub?.grace_period_ends_at).toBeUndefined();
    expect(sub?.next_retry_on).toBeUndefined();
    const { data: dunning } = await db()
      .entities.dunning.get({
        organisation_id: world.organisation_id,
        subscription_id: m.subscription.subscription_id,
      })
      .go();
    expect(dunning).toBeNull();
  });

  it("a hard decline is not retried and the member is emailed to update the method", async () => {
    const m = await member("4000000000009987", "Lee Lost");
    await billingRun(clock);
    await settleSimulatedNow();
    const declined = await payment(m.payment);
    expect(declined.status).toBe("declined");
    expect(declined.decline_kind).toBe("hard");
    const sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
    expect(sub?.hard_declined).toBe(true);
    expect(sub?.next_retry_on).toBeUndefined();
    await at(new Date(START.getTime() + DAY));
    await runJob("payment-retries");
    expect(
      simulatedLedger().filter((e) => e.meta.subscription_id === m.subscription.subscription_id),
    ).toHaveLength(1);
    const mail = (await listOutbox()).find((x) => x.to === m.user.email);
    expect(mail?.text).toContain("won't try this payment method again");
    expect(mail?.text).toContain("/payment-method");
  });

  it("a period falling due on the day grace ends is not charged: the billing run cancels first, even before grace-expiry runs (found by the billing simulation)", async () => {
    // Pro-rata 1–15 December, then monthly from 15 December, the day a failure on 1 December ends grace.
    const user = await addMember(world, "Greta Graceday");
    await addCard(world, user, "4000000000009995");
    const { subscription, first_payment } = await subscribeMember(world, user, {
      start_date: "2026-12-01",
      billing_date: "2026-12-15",
    });
    await billingRun(clock);
    await settleSimulatedNow();
    expect((await payment(first_payment)).status).toBe("failed");
    const due = await findSubscription(world.organisation_id, subscription.subscription_id);
    const next = await findPayment(world.organisation_id, due?.upcoming_payment_id ?? "");
    expect(next?.due_on).toBe("2026-12-15");
    // 00:05 on 15 December: the hourly billing run happens to go before grace-expiry.
    await at(new Date("2026-12-14T11:05:00.000Z"));
    await billingRun(clock);
    expect(simulatedLedger().filter((e) => e.idempotency_key === `payment-${next?.payment_id}`)).toHaveLength(
      0,
    );
    expect((await findPayment(world.organisation_id, next?.payment_id ?? ""))?.status).toBe("cancelled");
    const sub = await findSubscription(world.organisation_id, subscription.subscription_id);
    expect(sub?.cancellation_reasons).toEqual(["failed_payments"]);
  });

  it("grace expiry with debt owing cancels for failed payments and revokes door access; a final notice comes two days before", async () => {
    const m = await member("4000000000009995", "Gale Grace");
    const revoked: string[] = [];
    const simulated = kisiProvider();
    setKisiProvider({
      ...simulated,
      async revokeMemberAccess(key, input) {
        expect(key).toBe(KISI_KEY);
        expect(input.place_id).toBe(world.place_id);
        revoked.push(input.external_id);
      },
    });
    await billingRun(clock);
    await settleSimulatedNow();
    await at(new Date(START.getTime() + 12 * DAY));
    await runJob("grace-expiry");
    const notices = (await listOutbox()).filter(
      (x) => x.to === m.user.email && x.subject.startsWith("Final notice"),
    );
    expect(notices).toHaveLength(1);
    await runJob("grace-expiry");
    expect(
      (await listOutbox()).filter((x) => x.to === m.user.email && x.subject.startsWith("Final notice")),
    ).toHaveLength(1);
    expect(revoked).not.toContain(m.user.user_id);
    await at(new Date(START.getTime() + 14 * DAY));
    expect((await runJob("grace-expiry")).summary.cancelled).toBeGreaterThanOrEqual(1);
    const sub = await findSubscription(world.organisation_id, m.subscription.subscription_id);
    expect(sub?.cancelled_at).toBeTruthy();
    expect(sub?.cancellation_reasons).toEqual(["failed_payments"]);
    expect(revoked).toContain(m.user.user_id);
    expect((await listOutbox()).some((x) => x.to === m.user.email && /cancelled/.test(x.subject))).toBe(true);
    setKisiProvider(undefined);
    // Running it again changes nothing.
    expect((await runJob("grace-expiry")).summary.cancelled).toBe(0);
  });
});

describe("credit ahead from a manual payment", () => {
  async function upcomingOf(userId: string) {
    const { data } = await db()
      .entities.payment.query.byMember({ organisation_id: world.organisation_id, user_id: userId })
      .go();
    const next = data.find((p) => p.status === "upcoming");
    if (!next) throw new Error("no upcoming payment");
    return next;
  }
  const dayOf = (civil: string) => new Date(`${civil}T09:00:00+13:00`);

  it("pays later payments before any charge: a covered one is sent without a provider call, the rest is charged, never spent twice", async () => {
    const m = await member("4242424242424242", "Cleo Credit");
    await billingRun(clock);
    await settleSimulatedNow();
    expect((await payment(m.payment)).status).toBe("sent");
    // 1.5 periods of credit: a manual payment with nothing owing (recorded by an organisation
    // admin, so the ledger counts the money it is made of).
    const amount = m.payment.amount;
    const { recordManualPayment } = await import("../subscription/operations/manual-payment");
    await recordManualPayment(worldAdmin(world, "test-admin"), m.subscription.subscription_id, {
      amount: amount + amount / 2,
      payment_method: "cash",
    });

    const second = await upcomingOf(m.user.user_id);
    await at(dayOf(second.due_on));
    // Two runs at once: the credit is spent once.
    await Promise.all([billingRun(clock), billingRun(clock)]);
    const covered = await payment(second);
    expect(covered).toMatchObject({ status: "sent", amount: 0, credit_used: amount, surcharge: 0 });
    expect(chargesOf(second)).toHaveLength(0);
    expect(
      (await findSubscription(world.organisation_id, m.subscription.subscription_id))?.credit_balance,
    ).toBe(amount / 2);

    const third = await upcomingOf(m.user.user_id);
    expect(third.amount).toBe(amount);
    await at(dayOf(third.due_on));
    await billingRun(clock);
    await settleSimulatedNow();
    const part = await payment(third);
    expect(part).toMatchObject({ status: "sent", amount: amount / 2, credit_used: amount / 2 });
    expect(chargesOf(third)).toHaveLength(1);
    expect(chargesOf(third)[0].amount).toBe(part.amount + part.surcharge);
    expect(
      (await findSubscription(world.organisation_id, m.subscription.subscription_id))?.credit_balance,
    ).toBe(0);

    // With the credit gone, the next period is charged in full.
    const fourth = await upcomingOf(m.user.user_id);
    await at(dayOf(fourth.due_on));
    await billingRun(clock);
    expect(await payment(fourth)).toMatchObject({ amount, credit_used: 0 });
  });
});
