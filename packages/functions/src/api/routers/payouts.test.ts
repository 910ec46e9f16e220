/**
 * docs/accounting.md "Payouts" over real HTTP: the simulated Stripe pays settled card charges out
 * (fees apart) and sends a signed `payout.paid`, bound as docs/providers.md "Binding events" says
 * (the connected account must be the gym's; what the payout holds is read from Stripe, never the
 * body); a day's settled Akahu bank payments are that day's settlement; `GET /api/payouts` lists
 * each deposit with its payments, fees, "adds up" flag and the journal that matches the bank line.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";
import {
  addBankAccount,
  addCard,
  addMember,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
} from "../../../../../tests/support/money";
import { adminOf } from "../../../../../tests/support/money-api";

const api = useTestApi();
/** 09:00 on Tuesday 1 December 2026 in Auckland (NZDT). */
const START = new Date("2026-11-30T20:00:00.000Z");
const DAY = "2026-12-01";
const ARRIVAL = "2026-12-03";

let world: MoneyWorld;
let admin: HttpClient;
let core: {
  clock: typeof import("@gym/core/clock");
  jobs: typeof import("@gym/core/jobs/run");
  sim: typeof import("@gym/core/simulators/simulation");
  payouts: typeof import("@gym/core/simulators/stripe-payouts");
  stripe: typeof import("@gym/core/simulators/stripe");
  store: typeof import("@gym/core/payment/store");
  db: typeof import("@gym/core/db/service");
};

const provider = () => new HttpClient(api.url, { xhr: false });
let n = 0;

async function payoutEvent(object: Record<string, unknown>, account = world.stripe_account) {
  const { signStripePayload } = await import("@gym/core/providers/stripe/verify");
  n += 1;
  const body = JSON.stringify({
    id: `evt_payout_${n}_${Date.now()}`,
    object: "event",
    type: "payout.paid",
    account,
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    data: { object: { object: "payout", currency: "nzd", status: "paid", ...object } },
  });
  return provider().request("POST", "/api/webhooks/stripe", body, {
    "Stripe-Signature": signStripePayload(body, core.stripe.SIMULATED_STRIPE_WEBHOOK_SECRET),
  });
}

async function charged(kind: "card" | "bank") {
  const user = await addMember(world, `Payer ${++n}`);
  if (kind === "card") await addCard(world, user, "4242424242424242");
  else await addBankAccount(world, user, "pays");
  const { first_payment } = await subscribeMember(world, user);
  return first_payment.payment_id as string;
}

async function paid(paymentId: string) {
  const found = await core.store.findPayment(world.organisation_id, paymentId);
  expect(found?.status, paymentId).toBe("sent");
  return found!;
}

async function list(query = `from=${DAY}&to=${ARRIVAL}`) {
  const res = await admin.get(`/api/payouts?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Record<string, any>[]; meta: { next_cursor: string | null; per_page: number } };
}

beforeAll(async () => {
  core = {
    clock: await import("@gym/core/clock"),
    jobs: await import("@gym/core/jobs/run"),
    sim: await import("@gym/core/simulators/simulation"),
    payouts: await import("@gym/core/simulators/stripe-payouts"),
    stripe: await import("@gym/core/simulators/stripe"),
    store: await import("@gym/core/payment/store"),
    db: await import("@gym/core/db/service"),
  };
  world = await moneyWorld({ name: "Payout Gyms" });
  admin = await adminOf(world, api.url, "payouts-admin@example.com");
});

beforeEach(async () => {
  core.sim.resetSimulatedProviders();
  core.sim.setSimulatedChaos({ settleDelayMs: 3_600_000 });
  await core.clock.setBusinessClock(START);
});

describe("Stripe payouts and Akahu settlements", () => {
  let cardIds: string[];
  let bankId: string;

  it("a payout.paid is recorded with the card payments inside it, the fees apart, and a journal that balances", async () => {
    cardIds = [await charged("card"), await charged("card")];
    bankId = await charged("bank");
    await core.jobs.runJob("billing-run", START);
    await core.sim.settleSimulatedNow({ pollGated: true });
    await core.jobs.runJob("payment-polling", new Date(START.getTime() + 20 * 60_000));
    await core.sim.settleSimulatedNow({ pollGated: true });
    const cards = await Promise.all(cardIds.map(paid));
    const bank = await paid(bankId);

    const made = core.payouts.paySimulatedStripePayouts(ARRIVAL, core.stripe.SIMULATED_STRIPE_WEBHOOK_SECRET);
    expect(made).toHaveLength(1);
    // Asynchronous, like a charge's settlement: nothing until Stripe sends the event.
    expect((await list()).data.filter((p) => p.provider === "stripe")).toEqual([]);
    await core.sim.settleSimulatedNow();

    const { data } = await list();
    const stripe = data.find((p) => p.provider === "stripe")!;
    const gross = cards.reduce((s, p) => s + p.amount + p.surcharge, 0);
    const fee = cards.reduce((s, p) => s + core.payouts.simulatedStripeFee(p.amount + p.surcharge), 0);
    expect(stripe).toMatchObject({
      provider_id: made[0].payout.id,
      gym_id: world.gym_id,
      arrival_date: ARRIVAL,
      gross,
      fee,
      amount: gross - fee,
      adds_up: true,
      problems: [],
    });
    expect(stripe.payments.map((p: { payment_id: string }) => p.payment_id).sort()).toEqual(
      [...cardIds].sort(),
    );
    expect(stripe.journal.lines).toEqual([
      expect.objectContaining({ account: "090", amount: gross - fee }),
      expect.objectContaining({ account: "404", tax_rate: "15% GST on Expenses", amount: fee }),
      expect.objectContaining({ account: "621", amount: -gross }),
    ]);

    // Stripe sends the event again (another delivery): the payout is recorded once.
    const again = await payoutEvent({ id: stripe.provider_id, amount: stripe.amount });
    expect(again.body).toMatchObject({ received: true, outcome: "accepted" });
    expect((await list()).data.filter((p) => p.provider === "stripe")).toEqual([stripe]);

    // The bank payment reached the gym's account directly: the day's Akahu settlement.
    const akahu = data.find((p) => p.provider === "akahu")!;
    expect(akahu).toMatchObject({
      fee: 0,
      amount: bank.amount,
      adds_up: true,
      id: `akahu:${world.gym_id}:${DAY}`,
    });
    expect(akahu.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([bankId]);
    expect(akahu.journal.lines.map((l: { account: string }) => l.account)).toEqual(["090", "622"]);
  });

  it("a payout.paid naming a payout Stripe does not have on the account, or an account not ours, is refused", async () => {
    const before = (await list()).data.filter((p) => p.provider === "stripe");
    expect(before).toHaveLength(1);
    const forged = await payoutEvent({ id: "po_forged", amount: 100_000 });
    expect(forged.body).toMatchObject({ received: true, outcome: "refused" });
    const elsewhere = await payoutEvent({ id: before[0].provider_id }, "acct_simnotours");
    expect(elsewhere.status).toBe(200);
    expect((await list()).data.filter((p) => p.provider === "stripe")).toEqual(before);
  });

  it("pages newest first; refuses long periods, bad cursors and another organisation's gym", async () => {
    const first = await list(`from=${DAY}&to=${ARRIVAL}&per_page=1`);
    expect(first.data).toHaveLength(1);
    expect(first.data[0].arrival_date).toBe(ARRIVAL);
    const second = await list(`from=${DAY}&to=${ARRIVAL}&per_page=1&cursor=${first.meta.next_cursor}`);
    expect(second.data[0].arrival_date).toBe(DAY);
    expect(second.meta.next_cursor).toBeNull();
    expect((await list(`from=${DAY}&to=${ARRIVAL}&provider=akahu`)).data).toHaveLength(1);

    const long = await admin.get(`/api/payouts?from=2026-01-01&to=${ARRIVAL}`);
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ to: ["Show at most 92 days of payouts at once"] });
    const cursor = await admin.get(`/api/payouts?from=${DAY}&to=${ARRIVAL}&cursor=nope`);
    expect(cursor.status).toBe(422);
    const other = await moneyWorld({ name: "Other Payout Gyms" });
    expect((await admin.get(`/api/payouts?from=${DAY}&to=${ARRIVAL}&gym_id=${other.gym_id}`)).status).toBe(
      404,
    );
  });

  it("a payout.paid the app turned away (429: too many calls) is delivered again later, as Stripe retries it", async () => {
    const before = (await list()).data.filter((p) => p.provider === "stripe");
    const cardId = await charged("card");
    await core.jobs.runJob("billing-run", START);
    await core.sim.settleSimulatedNow({ pollGated: true });
    await core.jobs.runJob("payment-polling", new Date(START.getTime() + 20 * 60_000));
    await core.sim.settleSimulatedNow({ pollGated: true });
    await paid(cardId);
    const [made] = core.payouts.paySimulatedStripePayouts(
      ARRIVAL,
      core.stripe.SIMULATED_STRIPE_WEBHOOK_SECRET,
    );
    // Every call of this minute is over the limit: the event is answered 429, each attempt.
    process.env.WEBHOOK_CALLS_PER_MINUTE = "1";
    try {
      await core.sim.settleSimulatedNow();
    } finally {
      delete process.env.WEBHOOK_CALLS_PER_MINUTE;
    }
    expect(core.sim.simulatedDeliveries().filter((d) => d.provider_id === made.payout.id)).toEqual([
      expect.objectContaining({ type: "payout.paid", outcome: "failed" }),
    ]);
    expect((await list()).data.filter((p) => p.provider === "stripe")).toEqual(before);
    // Stripe tries again later (the next round of deliveries): the payout is recorded.
    await core.sim.settleSimulatedNow();
    const after = (await list()).data.filter((p) => p.provider === "stripe");
    expect(after.map((p) => p.provider_id).sort()).toEqual(
      [...before.map((p) => p.provider_id), made.payout.id].sort(),
    );
  });

  it("a payout whose payout.paid never came is recorded by the payout-catch-up job, once however often it runs", async () => {
    const before = (await list()).data.filter((p) => p.provider === "stripe");
    const cardId = await charged("card");
    await core.jobs.runJob("billing-run", START);
    await core.sim.settleSimulatedNow({ pollGated: true });
    await core.jobs.runJob("payment-polling", new Date(START.getTime() + 20 * 60_000));
    await core.sim.settleSimulatedNow({ pollGated: true });
    const card = await paid(cardId);
    core.sim.setSimulatedChaos({ dropWebhooks: 1 });
    const [made] = core.payouts.paySimulatedStripePayouts(
      ARRIVAL,
      core.stripe.SIMULATED_STRIPE_WEBHOOK_SECRET,
    );
    await core.sim.settleSimulatedNow();
    core.sim.setSimulatedChaos({ dropWebhooks: 0 });
    expect(core.sim.simulatedDeliveries().filter((d) => d.provider_id === made.payout.id)).toEqual([
      expect.objectContaining({ type: "payout.paid", outcome: "dropped" }),
    ]);
    expect((await list()).data.filter((p) => p.provider === "stripe")).toEqual(before);

    const later = new Date(START.getTime() + 3 * 86_400_000);
    const first = await core.jobs.runJob("payout-catch-up", later);
    expect(first.summary).toMatchObject({ recorded: 1, refused: 0 });
    const after = (await list()).data.filter((p) => p.provider === "stripe");
    expect(after).toHaveLength(before.length + 1);
    const caught = after.find((p) => p.provider_id === made.payout.id)!;
    expect(caught).toMatchObject({
      amount: made.payout.amount,
      gross: card.amount + card.surcharge,
      adds_up: true,
    });
    expect(caught.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([cardId]);

    // Again, and the event arriving late after all: nothing new.
    expect((await core.jobs.runJob("payout-catch-up", later)).summary).toMatchObject({ recorded: 0 });
    const late = await payoutEvent({ id: made.payout.id, amount: made.payout.amount });
    expect(late.body).toMatchObject({ received: true, outcome: "accepted" });
    expect((await list()).data.filter((p) => p.provider === "stripe")).toEqual(after);
  });

  it("exports the period's deposits as a CSV file: one row per payment, formulas written as text", async () => {
    const user = await addMember(world, '=HYPERLINK("http://x","y")');
    await addCard(world, user, "4242424242424242");
    const { first_payment } = await subscribeMember(world, user);
    await core.jobs.runJob("billing-run", START);
    await core.sim.settleSimulatedNow({ pollGated: true });
    const card = await paid(first_payment.payment_id);
    const [made] = core.payouts.paySimulatedStripePayouts(
      ARRIVAL,
      core.stripe.SIMULATED_STRIPE_WEBHOOK_SECRET,
    );
    await core.sim.settleSimulatedNow();
    const listed = (await list()).data;

    const { call, file } = await admin.exportCsv("/api/payouts/export", { from: DAY, to: ARRIVAL });
    expect(call.status, JSON.stringify(call.body)).toBe(303);
    expect(file?.status).toBe(200);
    const { parse } = await import("csv-parse/sync");
    const rows: string[][] = parse(file!.text.replace(/^\uFEFF/, ""));
    expect(rows[0]).toEqual([...(await import("@gym/core/contract/accounting")).payoutExportColumns]);
    // Every payment of every deposit listed, once.
    expect(rows.length - 1).toBe(listed.reduce((n, p) => n + Math.max(1, p.payments.length), 0));
    const row = rows.find((r) => r[11] === card.stripe_id)!;
    expect(row.slice(0, 9)).toEqual([
      `stripe:${made.payout.id}`,
      "Stripe",
      made.payout.id,
      world.gym_name,
      "3/12/2026",
      (made.payout.amount / 100).toFixed(2),
      ((card.amount + card.surcharge - made.payout.amount) / 100).toFixed(2),
      ((card.amount + card.surcharge) / 100).toFixed(2),
      "yes",
    ]);
    expect(row[10]).toBe(card.payment_id);
    expect(row[12]).toBe(`'=HYPERLINK("http://x","y")`);
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+@\t\r]/);

    // The list's checks: admins only, 92 days at most, the organisation's own gyms.
    expect((await admin.post("/api/payouts/export", { from: "2026-01-01", to: ARRIVAL })).status).toBe(422);
    const other = await moneyWorld({ name: "Other Export Gyms" });
    expect(
      (await admin.post("/api/payouts/export", { from: DAY, to: ARRIVAL, gym_id: other.gym_id })).status,
    ).toBe(404);
  });
});
