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
});
