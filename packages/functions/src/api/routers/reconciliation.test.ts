/**
 * The daily reconciliation against the providers (docs/providers.md "Reconciliation"): each
 * settled payment is checked once with the provider that charged it; a disagreement is recorded
 * once, counted in the run's summary and shown on `/expected-payments-debugging`.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signIn, useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach, ledgerForgedOnPurpose } from "../../../../../tests/support/ledger";
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
const NEXT_MORNING = new Date(START.getTime() + 24 * 3_600_000);

let world: MoneyWorld;
let admin: HttpClient;
let core: {
  clock: typeof import("@gym/core/clock");
  jobs: typeof import("@gym/core/jobs/run");
  sim: typeof import("@gym/core/simulators/simulation");
  store: typeof import("@gym/core/payment/store");
  db: typeof import("@gym/core/db/service");
};

async function payment(paymentId: string) {
  const found = await core.store.findPayment(world.organisation_id, paymentId);
  if (!found) throw new Error("payment missing");
  return found;
}

/** Our record says something else than the provider (as defect 3 left a paid payment: failed). */
async function markOurs(paymentId: string, set: { status?: "failed" | "sent"; amount?: number }) {
  await core.db
    .db()
    .entities.payment.patch({ organisation_id: world.organisation_id, payment_id: paymentId })
    .set(set)
    .go();
}

beforeAll(async () => {
  core = {
    clock: await import("@gym/core/clock"),
    jobs: await import("@gym/core/jobs/run"),
    sim: await import("@gym/core/simulators/simulation"),
    store: await import("@gym/core/payment/store"),
    db: await import("@gym/core/db/service"),
  };
  world = await moneyWorld({ name: "Reconciled Gyms" });
  const { createUser } = await import("@gym/core/user/service");
  const { putRole } = await import("@gym/core/user/roles");
  const owner = await createUser({
    email: "owner@reconciled.example",
    name: "Rae Owner",
    email_verified: true,
    password: "demo-password",
  });
  await putRole({ organisation_id: world.organisation_id, user_id: owner.user_id, org_role: "admin" });
  admin = await signIn(api.url, "owner@reconciled.example");
});

beforeEach(async () => {
  core.sim.resetSimulatedProviders();
  await core.clock.setBusinessClock(START);
});

describe("reconciliation job", () => {
  it("finds a payment we marked failed that the provider says succeeded, and one whose amount differs; records each once even when two runs go at once; shows them to admins", async () => {
    const paid = await addMember(world, "Paige Paid");
    await addCard(world, paid, "4242424242424242");
    const wronglyFailed = await addMember(world, "Fay Failed");
    await addCard(world, wronglyFailed, "4242424242424242");
    const bank = await addMember(world, "Bo Bank");
    await addBankAccount(world, bank, "pays");
    const made = {
      paid: await subscribeMember(world, paid),
      wronglyFailed: await subscribeMember(world, wronglyFailed),
      bank: await subscribeMember(world, bank),
    };
    const ids = {
      paid: made.paid.first_payment.payment_id,
      wronglyFailed: made.wronglyFailed.first_payment.payment_id,
      bank: made.bank.first_payment.payment_id,
    };
    // The two records changed below break their ledgers on purpose; the job reports that too.
    ledgerForgedOnPurpose(made.wronglyFailed.subscription.subscription_id);
    ledgerForgedOnPurpose(made.bank.subscription.subscription_id);
    await core.jobs.runJob("billing-run", START);
    await core.sim.settleSimulatedNow();
    for (const id of Object.values(ids)) expect((await payment(id)).status).toBe("sent");

    await markOurs(ids.wronglyFailed, { status: "failed" });
    const bankPayment = await payment(ids.bank);
    await markOurs(ids.bank, { amount: bankPayment.amount + 100 });

    const [a, b] = await Promise.all([
      core.jobs.runJob("reconciliation", NEXT_MORNING),
      core.jobs.runJob("reconciliation", NEXT_MORNING),
    ]);
    expect(a.summary.mismatches + b.summary.mismatches).toBe(2);
    // Each forged subscription breaks two of the ledger's invariants (docs/billing.md): counted
    // once, and owing (the one marked failed) or the balance (the one whose amount was changed).
    expect(a.summary.ledger_breaks + b.summary.ledger_breaks).toBeGreaterThanOrEqual(4);
    expect(a.summary.checked + b.summary.checked).toBeGreaterThanOrEqual(3);
    // Checked once: the next run has nothing left to read.
    const again = await core.jobs.runJob("reconciliation", NEXT_MORNING);
    expect(again.summary).toMatchObject({ checked: 0, mismatches: 0 });

    const { data: recorded } = await core.db
      .db()
      .entities.reconciliationMismatch.query.primary({ organisation_id: world.organisation_id })
      .go();
    expect(recorded.map((m) => m.payment_id).sort()).toEqual([ids.wronglyFailed, ids.bank].sort());

    const page = await admin.get("/api/expected-payments-debugging");
    expect(page.status).toBe(200);
    const shown = page.body.data.mismatches as { payment_id: string; kind: string; provider: string }[];
    expect(shown).toHaveLength(2);
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          payment_id: ids.wronglyFailed,
          provider: "stripe",
          kind: "status",
          our_status: "failed",
          provider_status: "succeeded",
          user: { id: wronglyFailed.user_id, name: "Fay Failed" },
        }),
        expect.objectContaining({
          payment_id: ids.bank,
          provider: "akahu",
          kind: "amount",
          provider_status: "SENT",
        }),
      ]),
    );
  });

  it("a provider that cannot be reached leaves the payment for the next run", async () => {
    const member = await addMember(world, "Una Reachable");
    await addCard(world, member, "4242424242424242");
    const { first_payment } = await subscribeMember(world, member);
    await core.jobs.runJob("billing-run", START);
    await core.sim.settleSimulatedNow();
    const { setStripeProvider, stripeProvider } = await import("@gym/core/providers/stripe/index");
    const { ProviderError } = await import("@gym/core/providers/errors");
    const real = stripeProvider();
    setStripeProvider({
      ...real,
      async retrievePaymentIntent() {
        throw new ProviderError("stripe", "Stripe could not be reached.", "unavailable");
      },
    });
    try {
      const first = await core.jobs.runJob("reconciliation", NEXT_MORNING);
      expect(first.summary).toMatchObject({ checked: 1, unreachable: 1, mismatches: 0 });
    } finally {
      setStripeProvider(real);
    }
    const second = await core.jobs.runJob("reconciliation", NEXT_MORNING);
    expect(second.summary).toMatchObject({ checked: 1, matched: 1, mismatches: 0 });
    expect((await payment(first_payment.payment_id)).status).toBe("sent");
  });
});
