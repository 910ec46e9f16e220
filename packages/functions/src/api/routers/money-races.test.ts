/**
 * Issue 22's remaining money risks, from outside: members and staff act over HTTP at the same
 * moment as charges are in flight at the (simulated) provider. The business clock, the jobs and
 * the simulated providers are driven in-process, as money-ledger.test.ts does. Charges settle only
 * when a test says so (`settleSimulatedNow`), never on the simulated provider's timer, so "in
 * flight" is a state the test controls.
 *
 * docs/billing.md "Dunning → Debt" (a manual payment while a retry is in flight), "Switching the
 * payment method", "One default payment method"; docs/members.md (the list filters by the price in
 * effect); docs/dashboard.md (owing includes unpaid pay-in-full transfers).
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach } from "../../../../../tests/support/ledger";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  charges,
  core,
  join as joinAs,
  memberOf,
  runJob,
  settle,
} from "../../../../../tests/support/money-api";

const api = useTestApi();
checkLedgerAfterEach();
let world: MoneyWorld;
let admin: HttpClient;

/** Runs a job; its charges stay in flight until `settle()`. */
const run = (job: "billing-run" | "payment-retries" | "grace-expiry") => runJob(job, { settle: false });
const addPrice = (input: Parameters<typeof addWorldPrice>[1]) => addWorldPrice(world, input);
/** A member of the world's gym, signed in on the join site's API; with a saved card when given. */
const member = (card?: string) =>
  memberOf(world, api.url, { prefix: "races", name: (n) => `Races Member ${n}`, card });
const join = (client: HttpClient, priceId: string) => joinAs(world, client, priceId);

/** A card confirmed on the simulated Stripe form, ready for `POST /api/me/payment-types/card`. */
async function confirmedCard(client: HttpClient, number: string) {
  const setup = await client.post("/api/me/payment-types/card/setup");
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const form = new URL(setup.body.data.form_url);
  const confirm = await new HttpClient(api.url).post("/api/dev/stripe/setup/confirm", {
    account: setup.body.data.stripe_account,
    setup_intent: setup.body.data.setup_intent_id,
    client_secret: setup.body.data.client_secret,
    return_url: form.searchParams.get("return_url"),
    number,
    exp_month: 12,
    exp_year: 2034,
  });
  expect(confirm.status).toBeLessThan(400);
  return setup.body.data.setup_intent_id as string;
}

async function paymentTypesOf(userId: string) {
  const { listPaymentTypeRecords } = await core();
  return listPaymentTypeRecords(world.organisation_id, userId);
}

beforeAll(async () => {
  world = await moneyWorld({ name: "Races Gyms" });
  admin = await adminOf(world, api.url, "races-admin@example.nz");
});

beforeEach(async () => {
  const { resetSimulatedProviders, setSimulatedChaos } = await core();
  resetSimulatedProviders();
  // Charges stay in flight at the provider until the test settles them.
  setSimulatedChaos({ settleDelayMs: 10 * 60 * 1000 });
});

describe("a manual payment while a charge of the same debt is in flight (risk 1)", () => {
  it("is refused with 409 while the retry is at the provider; the balance is collected once, and the desk can take it once the retry failed", async () => {
    await at("2027-01-31");
    const priceId = await addPrice({ amount: 6001, billing_frequency: "monthly" });
    const m = await member("4000000000009995"); // soft decline: insufficient funds
    const sub = await join(m.client, priceId);
    await run("billing-run");
    await settle(); // 31 Jan: $60.01 fails
    let read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 6001, periods_owing: 1 });

    // The member saves a card that pays: the balance is retried at once, and is now at the provider.
    await at("2027-02-01");
    const saved = await m.client.post("/api/me/payment-types/card", {
      setup_intent_id: await confirmedCard(m.client, "4242424242424242"),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect((await charges(sub.id)).tried).toEqual([6001 + 180, 6001 + 180]);

    // Staff, not knowing, take the balance at the desk: refused while the retry is in flight.
    const manual = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 6001,
      payment_method: "eftpos",
    });
    expect(manual.status, JSON.stringify(manual.body)).toBe(409);
    expect(manual.body.error).toBe("debt_charge_in_flight");
    expect(manual.body.message).toMatch(/\$60\.01 .*being charged/);

    await settle(); // the retry succeeds
    read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0, credit_balance: 0 });
    // $60.01 was taken once, by the card; nothing at the desk.
    expect((await charges(sub.id)).taken).toEqual([6001 + 180]);
    // Now the desk can record money: with nothing owing it is all credit ahead, never lost.
    const after = await admin.post(`/api/subscriptions/${sub.id}/manual-payment`, {
      amount: 1000,
      payment_method: "cash",
    });
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ balance_owing: 0, credit_balance: 1000 });
  });

  it("the desk and a new card at the same moment: the balance is collected exactly once, whoever wins", async () => {
    await at("2027-03-31");
    const priceId = await addPrice({ amount: 4500, billing_frequency: "monthly" });
    const m = await member("4000000000009995");
    const sub = await join(m.client, priceId);
    await run("billing-run");
    await settle(); // $45.00 fails
    const setupIntent = await confirmedCard(m.client, "4242424242424242");
    await at("2027-04-01");
    const [manual, saved] = await Promise.all([
      admin.post(`/api/subscriptions/${sub.id}/manual-payment`, { amount: 4500, payment_method: "eftpos" }),
      m.client.post("/api/me/payment-types/card", { setup_intent_id: setupIntent }),
    ]);
    expect(saved.status).toBe(201);
    expect([200, 409]).toContain(manual.status);
    await settle();
    const taken = (await charges(sub.id)).taken;
    const atDesk = manual.status === 200 ? 4500 : 0;
    const byCard = taken.map((t) => t - 143); // 2.5 % + 30¢ of $45.00 = $1.43
    // The $45.00 owed is collected once in all: at the desk or by the card's retry, not both.
    expect(atDesk + byCard.reduce((s, a) => s + a, 0)).toBe(4500);
    const read = await admin.get(`/api/subscriptions/${sub.id}`);
    expect(read.body.data).toMatchObject({ balance_owing: 0, credit_balance: 0 });
  });
});

describe("switching the payment method (risk 2)", () => {
  it("making the default method default again starts no charge; a genuine switch retries the balance once, however many taps", async () => {
    await at("2027-05-31");
    const priceId = await addPrice({ amount: 3000, billing_frequency: "monthly" });
    const m = await member("4000000000009995");
    const sub = await join(m.client, priceId);
    await run("billing-run");
    await settle(); // $30.00 fails
    const [first] = await paymentTypesOf(m.user.user_id);
    await at("2027-06-01");

    // The card that is already the default, chosen again (three taps): no charge at all.
    const same = await Promise.all(
      [1, 2, 3].map(() => m.client.post(`/api/me/payment-types/${first.payment_type_id}/switch`)),
    );
    for (const a of same) expect(a.status, JSON.stringify(a.body)).toBe(200);
    await settle();
    expect((await charges(sub.id)).tried).toEqual([3000 + 105]);
    const again = await m.client.post(`/api/me/payment-types/${first.payment_type_id}/switch`);
    expect(again.status).toBe(200);
    await settle();
    expect((await charges(sub.id)).tried).toEqual([3000 + 105]);

    // A second card (declines too) becomes the default: one retry with it.
    const saved = await m.client.post("/api/me/payment-types/card", {
      setup_intent_id: await confirmedCard(m.client, "4000000000000341"),
    });
    expect(saved.status).toBe(201);
    await settle();
    expect((await charges(sub.id)).tried).toEqual([3105, 3105]);
    // It again, once it failed: still the default, no new charge.
    expect((await m.client.post(`/api/me/payment-types/${saved.body.data.id}/switch`)).status).toBe(200);
    await settle();
    expect((await charges(sub.id)).tried).toEqual([3105, 3105]);

    // Back to the first card, three taps at once: a genuine switch, one retry.
    const back = await Promise.all(
      [1, 2, 3].map(() => m.client.post(`/api/me/payment-types/${first.payment_type_id}/switch`)),
    );
    for (const a of back) expect(a.status, JSON.stringify(a.body)).toBe(200);
    await settle();
    expect((await charges(sub.id)).tried).toEqual([3105, 3105, 3105]);
    const types = await paymentTypesOf(m.user.user_id);
    expect(types.filter((t) => t.is_default).map((t) => t.payment_type_id)).toEqual([first.payment_type_id]);
  });
});

describe("one default payment method per member (risk 3)", () => {
  it("two first cards saved at the same moment: both kept, exactly one the default", async () => {
    await at("2027-07-01");
    for (let round = 0; round < 3; round++) {
      const m = await member();
      const intents = await Promise.all([
        confirmedCard(m.client, "4242424242424242"),
        confirmedCard(m.client, "5555555555554444"),
      ]);
      const answers = await Promise.all(
        intents.map((id) => m.client.post("/api/me/payment-types/card", { setup_intent_id: id })),
      );
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
      const types = await paymentTypesOf(m.user.user_id);
      expect(types).toHaveLength(2);
      expect(
        types.filter((t) => t.is_default),
        JSON.stringify(types),
      ).toHaveLength(1);
    }
  });
});

describe("one card saved once (docs/billing.md 'One default payment method')", () => {
  it("the same SetupIntent saved again, or twice at once (a double tap, a retry), is one payment type", async () => {
    await at("2027-07-02");
    const m = await member();
    const intent = await confirmedCard(m.client, "4242424242424242");
    const save = () => m.client.post("/api/me/payment-types/card", { setup_intent_id: intent });
    const answers = await Promise.all([save(), save()]);
    const again = await save();
    for (const a of [...answers, again]) expect(a.status, JSON.stringify(a.body)).toBeLessThan(300);
    const ids = new Set([...answers, again].map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    const types = await paymentTypesOf(m.user.user_id);
    expect(types, JSON.stringify(types)).toHaveLength(1);
    expect(types[0].is_default).toBe(true);
  });
});

describe("the members list filters by the price in effect (risk 4)", () => {
  it("after a scheduled price change takes effect, the member is listed under the new offering and price, not the old", async () => {
    await at("2027-08-02");
    const { addOffering } = await import("../../../../../tests/support/money");
    const other = await addOffering(world.organisation_id, { name: "Off-Peak", amount: 2000 });
    const oldPrice = await addPrice({ amount: 2500, billing_frequency: "weekly" });
    const newPrice = await addPrice({
      amount: 2000,
      billing_frequency: "weekly",
      offering_id: other.offering_id,
    });
    const m = await member("4242424242424242");
    const sub = await join(m.client, oldPrice);
    await run("billing-run");
    await settle();
    // A decrease may take effect soon: in three days.
    const scheduled = await admin.post("/api/subscriptions/schedule-price-change", {
      subscription_ids: [sub.id],
      price_id: newPrice,
      transition_takes_effect_at: "2027-08-05",
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const listed = async (query: string) =>
      ((await admin.get(`/api/members?per_page=100&${query}`)).body.data as { id: string }[]).map(
        (r) => r.id,
      );

    // Before it takes effect: the old price.
    expect(await listed(`price_id=${oldPrice}`)).toContain(m.user.user_id);
    expect(await listed(`price_id=${newPrice}`)).not.toContain(m.user.user_id);

    await at("2027-08-06");
    expect(await listed(`price_id=${newPrice}`)).toContain(m.user.user_id);
    expect(await listed(`offering_id=${other.offering_id}`)).toContain(m.user.user_id);
    expect(await listed(`price_id=${oldPrice}`)).not.toContain(m.user.user_id);
    expect(await listed(`offering_id=${world.offering_id}`)).not.toContain(m.user.user_id);
  });
});

/** A three-month pay-in-full membership that staff record as paid by bank transfer (not yet received). */
async function pifByTransfer(amount: number) {
  const pif = await addPrice({ amount, billing_frequency: "one_off", term_amount: 3, term_unit: "months" });
  const m = await member();
  const added = await admin.post(`/api/members/${m.user.user_id}/pif`, {
    price_id: pif,
    gym_id: world.gym_id,
    payment_method: "bank_transfer",
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const transferId: string = added.body.data.first_payment?.id ?? added.body.data.latest_payment?.id;
  expect(transferId).toBeTruthy();
  return { subscription: added.body.data, subscriptionId: added.body.data.id as string, transferId };
}

describe("the dashboard's owing includes unpaid pay-in-full transfers (risk 5)", () => {
  it("a PIF recorded by bank transfer is owing until marked received", async () => {
    await at("2027-09-01");
    const stats = async () => {
      const answer = await admin.get("/api/stats?scope=organisation");
      expect(answer.status).toBe(200);
      return answer.body.data as {
        owing_amount: { current: number };
        owing_count: { current: number };
      };
    };
    const before = await stats();
    const added = await pifByTransfer(29900);
    expect(added.subscription).toMatchObject({ balance_owing: 29900 });
    const owed = await stats();
    expect(owed.owing_amount.current - before.owing_amount.current).toBe(29900);
    expect(owed.owing_count.current - before.owing_count.current).toBe(1);

    const received = await admin.post(`/api/payments/${added.transferId}/received`);
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    const paid = await stats();
    expect(paid.owing_amount.current).toBe(before.owing_amount.current);
    expect(paid.owing_count.current).toBe(before.owing_count.current);
    const read = await admin.get(`/api/subscriptions/${added.subscriptionId}`);
    expect(read.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0 });
  });
});

describe("a pay-in-full transfer paid at the desk instead (docs/billing.md 'Dunning → Debt')", () => {
  it("once the desk took the amount, the transfer cannot also be marked received: collected once", async () => {
    await at("2027-09-02");
    const { subscriptionId, transferId } = await pifByTransfer(19900);
    // The member pays at the desk instead of transferring.
    const desk = await admin.post(`/api/subscriptions/${subscriptionId}/manual-payment`, {
      amount: 19900,
      payment_method: "eftpos",
    });
    expect(desk.status, JSON.stringify(desk.body)).toBe(200);
    expect((await admin.get(`/api/subscriptions/${subscriptionId}`)).body.data).toMatchObject({
      balance_owing: 0,
    });
    // Marking the transfer received as well would take the $199.00 a second time.
    const received = await admin.post(`/api/payments/${transferId}/received`);
    expect(received.status, JSON.stringify(received.body)).toBe(409);
    expect(received.body.error).toBe("already_paid");
    const read = (await admin.get(`/api/subscriptions/${subscriptionId}`)).body.data;
    expect(read).toMatchObject({ balance_owing: 0, credit_balance: 0 });
  });
});

describe("two staff mark the same transfer received at once (issue 35 item 18)", () => {
  it("one wins; the others are told it is no longer awaiting payment, never that it was paid at the desk", async () => {
    await at("2027-09-03");
    // Several rounds, so that a loser reads the transfer before the winner's write and the ledger after it.
    for (let round = 0; round < 4; round++) {
      const { subscriptionId, transferId } = await pifByTransfer(15900 + round);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => admin.post(`/api/payments/${transferId}/received`)),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const lost of answers.filter((a) => a.status !== 200)) {
        expect(lost.status, JSON.stringify(lost.body)).toBe(409);
        expect(lost.body.error, JSON.stringify(lost.body)).toBe("not_awaiting_payment");
      }
      const read = (await admin.get(`/api/subscriptions/${subscriptionId}`)).body.data;
      expect(read).toMatchObject({ balance_owing: 0, payments_sum: 15900 + round });
    }
  }, 60_000);
});
