/**
 * The billing simulation (docs/simulation.md): an organisation with two gyms and N members over
 * every frequency, card and bank, term and flexi, walked day by day on the business clock through
 * the real jobs (billing run, retries, grace expiry, polling), the simulated Stripe and Akahu
 * (asynchronous settlement, webhooks through the real receivers) and a seeded random mix of
 * lifecycle operations (the same core calls the staff routes make). With faults: duplicated,
 * reordered and dropped webhooks, provider timeouts, two billing runs at once, and a crash between
 * the provider call and our write. At the end every member's charges in the providers' ledger are
 * reconciled against the reference model (tests/reference/model.ts), which is told only what
 * happened (the member's price, dates and the operations the engine accepted), never the engine's
 * own dates or amounts.
 */

import type { LedgerBreak } from "../../packages/core/src/payment/ledger-check";
import type { PaymentRecord } from "../../packages/core/src/payment/store";
import { isLocalOnly } from "../bench/measure";
import {
  billingDateAllowed,
  chargedOn,
  chargesUntil,
  type Day,
  daysFrom,
  decideCancel,
  type Frequency,
  type Membership,
  memberPause,
  type Promo,
  passVisits,
  pifTransferStanding,
  plusDays,
  type Rates,
  ratesOn as ratesIn,
  ratesWithOverride,
  type Surcharge,
  startEarly,
  surchargeOn,
  termEndOf,
  withoutBookedPauses,
} from "../reference/model";
import { freePort } from "../support/free-port";
import { type Books, simulatedBooks, simulatedPayouts } from "./books";
import { trackLedgerWrites } from "./ledger-writes";
import {
  type DecliningMember,
  type ExpectedCharge,
  type Reconciliation,
  reconcile,
  type TakenCharge,
} from "./reconcile";

export interface SimulationOptions {
  members: number;
  days: number;
  seed: number;
  faults: boolean;
  /** First business day (default 2027-09-20: the run crosses both DST changes and 29 Feb 2028). */
  startDate?: Day;
  /** After the run and before reconciling: make one extra charge for a member's period (the reconciler must catch it). */
  plantDoubleCharge?: boolean;
  /** Issue 22 scenarios (default on): overrides changed through the API, outages, unpaid PIF transfers, member-side pauses. */
  scenarios?: boolean;
  onProgress?: (day: number, days: number, label: string) => void;
  /**
   * Members (`m109`) whose subscription record (billing state, lifecycle events) is read at the end
   * for `trace` (`--trace-member`); every member's payments, provider calls, provider ledger and
   * webhook deliveries are traced anyway (kept in memory, no extra request).
   */
  traceMembers?: string[];
}

export interface SimulationResult extends Reconciliation {
  /** Subscriptions checked against the ledger's invariants, summed over the days (docs/billing.md). */
  ledger_checks: number;
  /** Each subscription's first break of the ledger's invariants, with the day it was seen. */
  invariant_breaks: (LedgerBreak & { day: Day; member: string })[];
  seed: number;
  days: number;
  ms: number;
  /** DynamoDB requests, less the local runtime's own (`localRequests`). */
  requests: number;
  /** The local runtime's own requests (business clock, mail outbox; none in AWS): not counted above. */
  localRequests: number;
  /**
   * The requests by what the walk was doing when they were sent: `job: <name>` (a scheduled job),
   * `operation: <name>` (a staff or member operation), joining, the providers' settlement and
   * webhooks, the setup, the reconciliation's own reads.
   */
  requestsBy: Record<string, number>;
  events: Record<string, number>;
  /**
   * The run's days exported as Xero journals (issue 37), added up, beside what the reference model
   * says was collected: the providers' charges it expects, the balances staff took at the desk and
   * the pay-in-full transfers marked received. Any difference is a discrepancy.
   */
  books: Books & { model: number };
  /**
   * The run's recorded Stripe payouts against the simulated Stripe's (each day's succeeded charges,
   * paid out the next morning, and the rest after the last day): each recorded once with exactly its
   * charges and adding up; paid out plus in transit is exactly the card payments the journals collected.
   */
  payouts: Awaited<ReturnType<typeof simulatedPayouts>>;
  /** Member id → a short description for discrepancy lines. */
  describe: (member: string) => string;
  /**
   * Member id → what happened to them: operations, the model's charges, the engine's payments (with
   * their money fields), each provider call the engine made for them and what came of it (a crash
   * or timeout injected there, the provider's ledger, the webhooks delivered), and for
   * `traceMembers` the subscription's billing state and lifecycle events.
   */
  trace: (member: string) => string[];
}

/**
 * The budget of DynamoDB requests for one member's year of billing (issue 36), judged on
 * `npm run simulate -- --members 40 --days 120 --seed 5 --faults` (npm run bench -- --simulate
 * prints it as a budget line).
 */
export const MEMBER_YEAR_BUDGET = 1_000;

/** Requests per member-year: a run's requests over its members, scaled from its days to a year. */
export const perMemberYear = (requests: number, members: number, days: number) =>
  (requests / Math.max(1, members)) * (365 / days);

/** mulberry32: a small seeded PRNG, so a seed replays the same run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ORG_SURCHARGE: Surcharge = { basisPoints: 250, fixedCents: 30 };
const GYM2_SURCHARGE: Surcharge = { basisPoints: 195, fixedCents: 0 };
const ORG_BREAK_FEE_BP = 2500;
const GYM2_BREAK_FEE_BP = 2000;
const COOLING_OFF_DAYS = 7;
const GRACE_DAYS = 14;

const FREQUENCIES: { frequency: Frequency; amount: number; weight: number }[] = [
  { frequency: "daily", amount: 450, weight: 1 },
  { frequency: "weekly", amount: 1999, weight: 4 },
  { frequency: "fortnightly", amount: 3995, weight: 3 },
  { frequency: "monthly", amount: 6000, weight: 4 },
  { frequency: "bi_monthly", amount: 11050, weight: 2 },
  { frequency: "quarterly", amount: 15000, weight: 2 },
  { frequency: "twice_yearly", amount: 29999, weight: 2 },
  { frequency: "yearly", amount: 60000, weight: 2 },
  { frequency: "one_off", amount: 90000, weight: 2 },
];

type Variant = "flexi" | "joining" | "term";

interface SimPrice {
  price_id: string;
  frequency: Frequency;
  amount: number;
  joining_fee: number;
  term: { amount: number; unit: "weeks" | "months" | "years" } | null;
  /** docs/offers.md "Trials". */
  trial?: { days: number; amount: number };
  /** docs/offers.md "Visit passes": a pay-in-full price with visits. */
  visits?: number;
}

/**
 * Offer members (issue 38; docs/offers.md): a trial that converts or is stopped by the member
 * inside it, a promo code (a percent for the first periods, a fixed amount forever), a visit pass
 * used at the door.
 */
type Offer = "trial" | "trial stopped" | "promo percent" | "promo fixed" | "pass";

type Decline = null | "soft" | "hard";

interface SimMember {
  id: string;
  user_id: string;
  name: string;
  gym: 0 | 1;
  method: "card" | "bank";
  decline: Decline;
  price: SimPrice;
  join_day: Day;
  start: Day;
  billing_date: Day;
  subscription_id?: string;
  /** The model's membership, kept up to date with every operation the engine accepted. */
  model: Membership;
  break_fees: ExpectedCharge[];
  term: { ends: Day; cooling_ends: Day; break_fee_bp: number } | null;
  cancelled_on: Day | null;
  immediate: boolean;
  ended: boolean;
  /** What happened to the member, for `--trace`. */
  log: string[];
  email: string;
  /** A soft-declining member who switches to a working card on this day (inside grace): the balance is retried at once. */
  recovers: Day | null;
  /** A soft-declining member who pays the balance at the desk on this day (a manual payment); their card keeps declining. */
  paysAtDesk: Day | null;
  /** Issue 22: paid the balance at the desk, failed again, then switched to a working card (`recovers`). */
  deskThenRecover?: boolean;
  /** Payment method switches the engine accepted: from that day on (before its billing run) this method pays. */
  switches: { from: Day; method: "card" | "bank" }[];
  offer?: Offer;
  /** A trial member who stops the trial themselves on this day (inside it). */
  stopsTrialOn?: Day;
  /** A pass member's door entries (days, in order; a day twice is two entries that day). */
  entries?: Day[];
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  const started = performance.now();
  const scenarios = options.scenarios ?? true;
  let closeServer: (() => Promise<void>) | undefined;
  const random = prng(options.seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const chance = (p: number) => random() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({
    port: await freePort(),
    heapMb: options.members > 300 ? 1024 : 512,
    // A run of minutes (the suite's 60 × 240) waits on DynamoDB Local request after request: the
    // optimising compiler too (docs/performance.md "Suite time", eleventh round). A short run keeps
    // the quick one only.
    longRun: options.members * options.days > 1_000,
  });
  process.env.APP_ENV = "test";
  // The injected crashes and timeouts log errors by design; SIM_LOG_LEVEL=error shows them.
  process.env.LOG_LEVEL = process.env.SIM_LOG_LEVEL ?? "silent";
  // Events are delivered only once the day's charge calls have finished (settle(), below), so an
  // event that finds its charge's answer missing finds it after a crash or a timeout: the answer
  // never lands and the receiver's ~2 s of waits for it (payment/webhooks.ts) are idle time. The
  // same re-reads and outcome, 1/100 of the wait (STRIPE_ANSWER_WAIT_SCALE=1 replays the real waits).
  process.env.STRIPE_ANSWER_WAIT_SCALE ??= "0.01";
  // The front door takes at most 600 webhook calls a minute from one source (webhook-limit.ts), in
  // real time, and every simulated provider calls from the same one. A simulated day takes about a
  // second, so on a fast machine a day's events went over it: 429s, the providers' redeliveries and
  // their requests made the count follow the machine's speed (60 members over a year, seed 1: 1,051
  // requests per member-year in 530 s, 1,731 in 351 s, ~5,800 calls refused). A provider's real day
  // is far under the limit; the limit itself is tested by webhook-calls.test.ts and payouts.test.ts.
  process.env.WEBHOOK_CALLS_PER_MINUTE ??= "1000000";
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = `sim-${options.seed}-${Date.now()}`;
  try {
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME);
    const { dynamo: client, resetDynamo } = await import("../../packages/core/src/db/client");
    resetDynamo();
    const { db } = await import("../../packages/core/src/db/service");
    const { setBusinessClock } = await import("../../packages/core/src/clock");
    const { startOfAucklandDay } = await import("../../packages/core/src/billing/calendar");
    const { runJob: runCoreJob } = await import("../../packages/core/src/jobs/run");
    const sim = await import("../../packages/core/src/simulators/simulation");
    const stripePayouts = await import("../../packages/core/src/simulators/stripe-payouts");
    const { SIMULATED_STRIPE_WEBHOOK_SECRET } = await import("../../packages/core/src/simulators/stripe");
    const { chargeHooks } = await import("../../packages/core/src/payment/charge");
    const { registerLocalWebhookDelivery } = await import(
      "../../packages/functions/src/local/webhook-delivery"
    );
    const { app } = await import("../../packages/functions/src/local/app");
    const { createOrganisation } = await import("../../packages/core/src/organisation/service");
    const { createGym } = await import("../../packages/core/src/gym/service");
    const { newId } = await import("../../packages/core/src/ids");
    const { linkProviderId } = await import("../../packages/core/src/providers/links");
    const { createUser } = await import("../../packages/core/src/user/service");
    const { putRole } = await import("../../packages/core/src/user/roles");
    const { actorFor } = await import("../../packages/core/src/auth/actor");
    const { createSubscription } = await import("../../packages/core/src/subscription/service");
    const ops = {
      ...(await import("../../packages/core/src/subscription/operations/cancel")),
      ...(await import("../../packages/core/src/subscription/operations/change-price")),
      ...(await import("../../packages/core/src/subscription/operations/manual-payment")),
      ...(await import("../../packages/core/src/subscription/operations/pause")),
      ...(await import("../../packages/core/src/subscription/operations/start-early")),
      ...(await import("../../packages/core/src/subscription/operations/undo-cancellation")),
    };
    const { findSubscription } = await import("../../packages/core/src/subscription/store");
    const { addBankAccount, addCard } = await import("../support/money");
    const { switchDefaultPaymentType } = await import("../../packages/core/src/payment-type/service");
    const { SIMULATED_KISI_PLACES } = await import("../../packages/core/src/simulators/kisi");
    const { encryptSecret } = await import("../../packages/core/src/crypto/secrets");
    const { serveApi } = await import("../../packages/functions/src/local/server");
    const { HttpClient } = await import("../support/http");
    const { createSession } = await import("../../packages/core/src/auth/session");
    const { pauseFromDays } = await import("../../packages/core/src/contract/lifecycle");
    // The API over real HTTP, for the calls the simulation makes as staff or as a member through
    // the router (gym settings, pay in full by transfer, a member's own pause).
    const served = await serveApi(0);
    closeServer = served.close;

    let requests = 0;
    let localRequests = 0;
    // What the walk is doing (it does one thing at a time; two billing runs at once are one thing).
    const requestsBy: Record<string, number> = {};
    let doing = "setup";
    const within = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
      const before = doing;
      doing = label;
      try {
        return await work();
      } finally {
        doing = before;
      }
    };
    client().middlewareStack.add(
      (next) => async (args) => {
        // The business clock and the mail outbox are the local runtime's (no such request in AWS).
        if (isLocalOnly(args.input as Record<string, unknown>)) {
          localRequests += 1;
          return next(args);
        }
        requests += 1;
        requestsBy[doing] = (requestsBy[doing] ?? 0) + 1;
        return next(args);
      },
      { step: "initialize", name: "simulationCounter" },
    );
    // The subscriptions each day's writes touched, for the daily ledger check (below).
    const ledgerWrites = trackLedgerWrites(client());
    const runJob: typeof runCoreJob = (name, ...rest) =>
      within(`job: ${name}`, () => runCoreJob(name, ...rest));

    sim.resetSimulatedProviders();
    registerLocalWebhookDelivery(app);
    // Every provider call the engine makes, for `trace`; the crash fault is injected here too (armed
    // for the first call of a crash day's billing run).
    let traceDay = "";
    let crashArmed = false;
    const providerCalls: {
      day: string;
      doing: string;
      payment_id: string;
      user_id: string;
      outcome: string;
      crash: boolean;
    }[] = [];
    chargeHooks.afterProviderCall = (payment, outcome) => {
      const crash = crashArmed;
      crashArmed = false;
      providerCalls.push({
        day: traceDay,
        doing,
        payment_id: payment.payment_id,
        user_id: payment.user_id,
        outcome:
          outcome.state === "unknown"
            ? `unknown (${outcome.message})`
            : `${outcome.state}${"providerId" in outcome && outcome.providerId ? ` ${outcome.providerId}` : ""}${outcome.state === "failed" ? ` ${outcome.code}` : ""}`,
        crash,
      });
      if (!crash) return;
      count("crash after provider call");
      throw new Error("simulated crash");
    };
    // Settlement is driven by the walk (settleSimulatedNow), never by real-time timers.
    sim.setSimulatedChaos({
      settleDelayMs: 86_400_000,
      seed: options.seed,
      ...(options.faults ? { duplicateWebhooks: 0.1, dropWebhooks: 0.05, reorderWebhooks: true } : {}),
      // ---- faults: provider events that arrive late or lie (issue 22, defect 3) ----
      // A final event delivered again days later; a correctly signed event for another charge at
      // the provider that names our payment (Stripe metadata; Akahu our organisation's state),
      // with the opposite outcome, delivered just before the genuine one.
      ...(options.faults ? { lateWebhooks: 0.05, lyingWebhooks: 0.05 } : {}),
      // ---- end: late and lying events ----
    });

    const day0 = options.startDate ?? "2027-09-20";
    const lastDay = plusDays(day0, options.days - 1);
    const at = async (day: Day, hour: number, minute = 0) => {
      const instant = new Date(startOfAucklandDay(day).getTime() + (hour * 60 + minute) * 60_000);
      await setBusinessClock(instant);
      return instant;
    };
    await at(day0, 7);

    // ---- the organisation: two gyms, prices for every frequency ----
    const org = await createOrganisation({ name: `Simulated Fitness ${options.seed}` });
    await db()
      .entities.organisation.patch({ organisation_id: org.organisation_id })
      .set({
        payment_retry_days: [1, 3, 5],
        failed_payment_grace_period: GRACE_DAYS,
        failed_payment_grace_period_unit: "days",
        cooling_off_days: COOLING_OFF_DAYS,
        card_surcharge_basis_points: ORG_SURCHARGE.basisPoints,
        card_surcharge_fixed_cents: ORG_SURCHARGE.fixedCents,
        break_fee_basis_points: ORG_BREAK_FEE_BP,
        access_control: {
          integration_id: newId(),
          integration_type: "kisi",
          api_key_enc: encryptSecret("kisi_sim_key", `organisation:${org.organisation_id}:kisi_api_key`),
          connected_at: new Date().toISOString(),
        },
      } as never)
      .go();
    const gyms: { gym_id: string; name: string; account: string; place_id: string }[] = [];
    for (const [n, name] of ["Ponsonby", "Newmarket"].entries()) {
      const gym = await createGym({ organisation_id: org.organisation_id, name: `Simulated ${name}` });
      const account = `acct_sim${newId().slice(-12)}`;
      const place = SIMULATED_KISI_PLACES[0];
      await db()
        .entities.gym.patch({ organisation_id: org.organisation_id, gym_id: gym.gym_id })
        .set({
          stripe_id: account,
          stripe_livemode: false,
          stripe_connected_at: new Date().toISOString(),
          destination_account: {
            account_id: newId(),
            name: `${gym.name} Ltd`,
            bank_account_number: "12-3140-0171323-50",
            updated_at: new Date().toISOString(),
          },
          kisi_place: { place_id: place.id, name: place.name, linked_at: new Date().toISOString() },
          ...(n === 1
            ? {
                card_surcharge_basis_points: GYM2_SURCHARGE.basisPoints,
                card_surcharge_fixed_cents: GYM2_SURCHARGE.fixedCents,
                break_fee_basis_points: GYM2_BREAK_FEE_BP,
              }
            : {}),
        })
        .go();
      await linkProviderId("stripe_account", account, {
        organisation_id: org.organisation_id,
        gym_id: gym.gym_id,
      });
      gyms.push({ gym_id: gym.gym_id, name: gym.name, account, place_id: place.id });
    }
    const offering_id = newId();
    await db()
      .entities.offering.create({
        organisation_id: org.organisation_id,
        offering_id,
        name: "24/7 Membership",
        type: "24_7",
        all_gyms_access: true,
      })
      .go();
    const prices = new Map<string, SimPrice>();
    const raised = new Map<Frequency, SimPrice>();
    const addPrice = async (p: Omit<SimPrice, "price_id">) => {
      const price_id = newId();
      await db()
        .entities.price.create({
          organisation_id: org.organisation_id,
          price_id,
          offering_id,
          amount: p.amount,
          billing_frequency: p.frequency,
          joining_fee: p.joining_fee || undefined,
          term_amount: p.term?.amount,
          term_unit: p.term?.unit,
          trial_days: p.trial?.days,
          trial_amount: p.trial?.amount,
          visits: p.visits,
          grouping_unique_identifier: newId(),
        } as never)
        .go();
      return { ...p, price_id };
    };
    for (const f of FREQUENCIES) {
      // ---- Issue 22 (lifecycle): PIF on every term unit. A pay-in-full price says how long it
      // covers (docs/billing.md "Pay in full"): 10 weeks (term variant), 3 months (joining), 2 years
      // (flexi); pif_ends_at must follow it, and a PIF is never a term membership (no break fee).
      const pifTerms = {
        flexi: { amount: 2, unit: "years" as const },
        joining: { amount: 3, unit: "months" as const },
        term: { amount: 10, unit: "weeks" as const },
      };
      const isPif = f.frequency === "one_off";
      const term = isPif
        ? pifTerms.term
        : f.frequency === "daily"
          ? { amount: 3, unit: "months" as const }
          : f.frequency === "weekly"
            ? { amount: 26, unit: "weeks" as const }
            : f.frequency === "yearly"
              ? { amount: 2, unit: "years" as const }
              : { amount: 12, unit: "months" as const };
      prices.set(
        `${f.frequency}:flexi`,
        await addPrice({
          frequency: f.frequency,
          amount: f.amount,
          joining_fee: 0,
          term: isPif ? pifTerms.flexi : null,
        }),
      );
      prices.set(
        `${f.frequency}:joining`,
        await addPrice({
          frequency: f.frequency,
          amount: f.amount + 1,
          joining_fee: 4999,
          term: isPif ? pifTerms.joining : null,
        }),
      );
      prices.set(
        `${f.frequency}:term`,
        await addPrice({ frequency: f.frequency, amount: f.amount - 1, joining_fee: 2500, term }),
      );
      if (f.frequency !== "one_off")
        raised.set(
          f.frequency,
          await addPrice({
            frequency: f.frequency,
            amount: Math.round(f.amount * 1.07) + 3,
            joining_fee: 0,
            term: null,
          }),
        );
    }

    const adminPassword = "simulated-gym-admin-passphrase";
    const admin = await createUser({
      email: `sim-admin-${options.seed}@example.nz`,
      name: "Sim Admin",
      email_verified: true,
      password: adminPassword,
    });
    await putRole({ organisation_id: org.organisation_id, user_id: admin.user_id, org_role: "admin" });
    // The admin as one request sees them: built afresh for each staff operation, as the API builds
    // it for each request (its gyms are read with it: a gym's break fee changed through the API
    // reaches the next cancellation, as it does in the product).
    const staff = () =>
      actorFor({
        session_id: "simulation",
        user_id: admin.user_id,
        current_organisation_id: org.organisation_id,
        current_gym_id: gyms[0].gym_id,
      });
    const actor = await staff();

    // ---- offers (issue 38; docs/offers.md): trial prices, two promo codes, visit passes ----
    const offerPrices = {
      weeklyTrial: await addPrice({
        frequency: "weekly",
        amount: 1999,
        joining_fee: 0,
        term: null,
        trial: { days: 7, amount: 0 },
      }),
      monthlyTrial: await addPrice({
        frequency: "monthly",
        amount: 6000,
        joining_fee: 2500,
        term: null,
        trial: { days: 14, amount: 1000 },
      }),
      tenVisits: await addPrice({
        frequency: "one_off",
        amount: 15000,
        joining_fee: 0,
        term: { amount: 3, unit: "months" },
        visits: 10,
      }),
      dayPass: await addPrice({
        frequency: "one_off",
        amount: 2000,
        joining_fee: 0,
        term: { amount: 1, unit: "weeks" },
        visits: 1,
      }),
    };
    const promoCodes: Record<"promo percent" | "promo fixed", { code: string; terms: Promo }> = {
      "promo percent": { code: "SIMHALF", terms: { kind: "percent", value: 5000, periods: 2 } },
      "promo fixed": { code: "SIMFIVE", terms: { kind: "fixed", value: 500, periods: null } },
    };
    {
      const { createPromoCode } = await import("../../packages/core/src/promo/service");
      for (const { code, terms } of Object.values(promoCodes))
        await createPromoCode(actor, {
          code,
          kind: terms.kind,
          ...(terms.kind === "percent" ? { percent_basis_points: terms.value } : { amount_off: terms.value }),
          periods: terms.periods,
        });
    }

    // ---- scenario: gym overrides changed through the API (issue 22, defect 2) ----
    // Another process than the billing run changes a gym's card surcharge and break fee: the sim
    // admin signs in and sends the staff `PUT /api/gyms/{id}` through the real router, on the first
    // day before anyone joins and on a few seeded days during the run (a change may also clear an
    // override: each number then falls back on the organisation's own). docs/billing.md "The
    // surcharge of a charge": the rate is read when the charge is priced (the claim, the retry), so
    // the model charges the rate in effect on the day the charge is made; the break fee's rate is the
    // one in effect when the cancellation makes it. Its own seeded dice.
    const rateDice = prng(options.seed ^ 0x0a7e_5e77);
    const rateDie = <T>(items: T[]): T => items[Math.floor(rateDice() * items.length)];
    const gymRates: Rates[][] = [
      [{ from: day0, surcharge: ORG_SURCHARGE, breakFeeBp: ORG_BREAK_FEE_BP }],
      [{ from: day0, surcharge: GYM2_SURCHARGE, breakFeeBp: GYM2_BREAK_FEE_BP }],
    ];
    const ratesOn = (gym: 0 | 1, day: Day): Rates => ratesIn(gymRates[gym], day);
    const rateChanges = new Map<
      Day,
      { gym: 0 | 1; bp: number | null; fixed: number | null; breakFee: number | null }[]
    >();
    if (scenarios) {
      const changes = 1 + Math.max(1, Math.round(options.days / 100));
      for (let i = 0; i < changes; i++) {
        const day =
          i === 0 ? day0 : plusDays(day0, 1 + Math.floor(rateDice() * Math.max(1, options.days - 1)));
        const change = {
          gym: (rateDice() < 0.5 ? 0 : 1) as 0 | 1,
          bp: rateDie<number | null>([100, 175, 195, 300, null]),
          fixed: rateDie<number | null>([0, 20, 33, null]),
          breakFee: rateDie<number | null>([1500, 2000, 3000, null]),
        };
        rateChanges.set(day, [...(rateChanges.get(day) ?? []), change]);
      }
    }
    /** The sim admin, signed in over HTTP (password, then the emailed code). */
    const staffApi = new HttpClient(served.url);
    {
      const signIn = await staffApi.post("/api/login", { email: admin.email, password: adminPassword });
      if (signIn.status !== 200) throw new Error(`sim admin sign-in: ${signIn.status}`);
      const mail = await staffApi.get("/api/dev/mail");
      const code = (mail.body.data as { to: string; subject: string }[]).find(
        (x) => x.to === admin.email && /sign-in code/.test(x.subject),
      );
      const verified = await staffApi.post("/api/email/verify", { code: code?.subject.slice(0, 6) });
      if (verified.status !== 200) throw new Error(`sim admin code: ${verified.status}`);
    }
    async function changeGymRates(today: Day) {
      for (const change of rateChanges.get(today) ?? []) {
        const gym = gyms[change.gym];
        const answer = await staffApi.put(`/api/gyms/${gym.gym_id}`, {
          name: gym.name,
          card_surcharge_basis_points: change.bp,
          card_surcharge_fixed_cents: change.fixed,
          break_fee_basis_points: change.breakFee,
        });
        if (answer.status !== 200) {
          count("gym override change refused");
          continue;
        }
        count("gym override changed through the API");
        gymRates[change.gym].push(
          ratesWithOverride(
            today,
            { surcharge: ORG_SURCHARGE, breakFeeBp: ORG_BREAK_FEE_BP },
            { basisPoints: change.bp, fixedCents: change.fixed, breakFeeBp: change.breakFee },
          ),
        );
      }
    }
    // ---- end: gym overrides ----

    // ---- scenario: the schedule not running for 1–14 days (issue 22) ----
    // A couple of seeded outages (about one per 200 days): on those days no billing run, polling,
    // retries or grace expiry (members, staff and the providers' webhooks go on). On the day after,
    // ONE run of each job must catch up every period that fell due meanwhile, each once, in order
    // (docs/billing.md "Catching up"): right after that one billing run nothing due may be left
    // unclaimed. Everything the schedule does happens on the first day it runs, so the model
    // prices a charge on `runDay(due)` (the rate and the method in force then) and a failure's
    // grace counts from that day. Its own seeded dice.
    const outageDice = prng(options.seed ^ 0x0b7a_9e14);
    const outage = new Set<Day>();
    const catchUp = new Set<Day>();
    if (scenarios && options.days > 40) {
      const wanted = Math.max(1, Math.round(options.days / 200));
      for (let i = 0; i < wanted * 4 && catchUp.size < wanted; i++) {
        const length = 1 + Math.floor(outageDice() * 14);
        const first = 10 + Math.floor(outageDice() * Math.max(1, options.days - length - 20));
        const days = Array.from({ length }, (_, k) => plusDays(day0, first + k));
        const after = plusDays(day0, first + length);
        const near = [plusDays(days[0], -1), ...days, after];
        if (near.some((d) => outage.has(d) || catchUp.has(d))) continue;
        for (const d of days) outage.add(d);
        catchUp.add(after);
      }
    }
    /** The first day on or after `due` the schedule runs: when a charge due then is made. */
    const runDay = (due: Day): Day => chargedOn(due, (day) => outage.has(day));
    // ---- end: outages ----

    // ---- the members (joining on their own days) ----
    const specials: Day[] = [];
    for (let d = 0; d < options.days; d++) {
      const day = plusDays(day0, d);
      const next = plusDays(day, 1);
      // Month ends (28th to 31st), 29 February, and the two DST change days.
      if (next.endsWith("-01") || day.endsWith("-29") || day.endsWith("-30") || day.endsWith("-28"))
        specials.push(day);
      // NZ daylight time ends on the first Sunday of April and starts on the last Sunday of September.
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      const dstEnds = day.slice(5, 7) === "04" && weekday === 0 && Number(day.slice(8)) <= 7;
      const dstStarts = day.slice(5, 7) === "09" && weekday === 0 && Number(day.slice(8)) >= 24;
      if (dstEnds || dstStarts || day.endsWith("-02-29")) specials.push(day, day);
    }
    // Issue 22 scenarios draw from their own stream, so adding them leaves the rest of a seed's run as it was.
    const ledgerRandom = prng(options.seed ^ 0x1ed9e5);
    const totalWeight = FREQUENCIES.reduce((s, f) => s + f.weight, 0);
    const members: SimMember[] = [];
    const joinWindow = Math.max(1, Math.min(options.days - 1, Math.round(options.days * 0.6)));
    for (let i = 0; i < options.members; i++) {
      let w = random() * totalWeight;
      let f = FREQUENCIES[FREQUENCIES.length - 1];
      for (const candidate of FREQUENCIES) {
        w -= candidate.weight;
        if (w < 0) {
          f = candidate;
          break;
        }
      }
      const variant: Variant = pick(["flexi", "flexi", "joining", "term"]);
      const price = prices.get(`${f.frequency}:${variant}`) as SimPrice;
      const method = chance(0.7) ? "card" : "bank";
      const decline: Decline = chance(0.08) ? (chance(0.5) ? "soft" : "hard") : null;
      let start: Day;
      let join: Day;
      if (specials.length > 0 && chance(0.3)) {
        start = pick(specials);
        const earliest = Math.max(
          0,
          Math.round((Date.parse(start) - Date.parse(day0)) / 86_400_000) - int(0, 10),
        );
        join = plusDays(day0, earliest);
      } else {
        join = plusDays(day0, chance(0.5) ? int(0, Math.min(30, joinWindow)) : int(0, joinWindow));
        start = chance(0.7) ? join : plusDays(join, int(1, 30));
      }
      if (start > lastDay) start = lastDay;
      let billing = start;
      if (f.frequency !== "one_off" && f.frequency !== "daily" && chance(0.45)) {
        const candidate = plusDays(start, int(1, 40));
        if (billingDateAllowed(f.frequency, start, candidate)) billing = candidate;
      }
      const gym = (i % 2) as 0 | 1;
      const pifEnds =
        f.frequency === "one_off"
          ? price.term
            ? termEndOf(start, price.term.amount, price.term.unit)
            : termEndOf(start, 12, "months")
          : null;
      members.push({
        id: `m${i + 1}`,
        user_id: "",
        name: `Sim Member ${i + 1}`,
        gym,
        method,
        decline,
        price,
        join_day: join,
        start,
        billing_date: billing,
        model: {
          frequency: f.frequency,
          amount: price.amount,
          joining_fee: price.joining_fee,
          start,
          billing_date: billing,
          pauses: [],
          price_change: null,
          cancellation_effective: null,
          pif_ends: pifEnds,
        },
        break_fees: [],
        // A PIF's term is the span paid for, not a commitment: no cooling-off, no break fee.
        term:
          price.term && f.frequency !== "one_off"
            ? {
                ends: termEndOf(start, price.term.amount, price.term.unit),
                cooling_ends: plusDays(start, COOLING_OFF_DAYS),
                break_fee_bp: gym === 1 ? GYM2_BREAK_FEE_BP : ORG_BREAK_FEE_BP,
              }
            : null,
        cancelled_on: null,
        immediate: false,
        ended: false,
        log: [],
        email: "",
        switches: [],
        recovers: null,
        paysAtDesk: null,
      });
      const last = members[members.length - 1];
      if (decline === "soft") {
        const day = plusDays(start, int(1, GRACE_DAYS - 2));
        if (chance(0.5)) last.recovers = day;
        else if (chance(0.6)) {
          last.paysAtDesk = day;
          planDeskThenRecover(last);
        }
      }
    }
    // ---- offer members (issue 38): drawn with their own dice, from members who pay as asked ----
    const offerDice = prng(options.seed ^ 0x0ffe_2538);
    for (const m of members) {
      const roll = offerDice();
      const pickPrice = offerDice();
      const when = offerDice();
      if (m.decline) continue;
      const offer: Offer | null =
        roll < 0.04
          ? "trial"
          : roll < 0.07
            ? "trial stopped"
            : roll < 0.1
              ? "promo percent"
              : roll < 0.13
                ? "promo fixed"
                : roll < 0.17
                  ? "pass"
                  : null;
      if (!offer) continue;
      if (offer === "promo percent" || offer === "promo fixed") {
        // A code on a recurring price without a term (a term's break fee is worked out at the list
        // price: docs/offers.md "Known gaps").
        if (m.model.frequency === "one_off" || m.term) continue;
        m.offer = offer;
        m.model.promo = promoCodes[offer].terms;
        continue;
      }
      const price =
        offer === "pass"
          ? pickPrice < 0.7
            ? offerPrices.tenVisits
            : offerPrices.dayPass
          : pickPrice < 0.5
            ? offerPrices.weeklyTrial
            : offerPrices.monthlyTrial;
      m.offer = offer;
      m.price = price;
      m.term = null;
      m.billing_date = m.start;
      m.model = {
        ...m.model,
        frequency: price.frequency,
        amount: price.amount,
        joining_fee: price.joining_fee,
        billing_date: m.start,
        pif_ends:
          price.term && offer === "pass" ? termEndOf(m.start, price.term.amount, price.term.unit) : null,
        trial: price.trial ?? null,
      };
      if (offer === "trial stopped" && price.trial)
        m.stopsTrialOn = plusDays(m.start, Math.floor(when * price.trial.days));
      if (offer === "pass" && m.model.pif_ends && price.visits) {
        // Entries on visits + 2 days of the pass (the last ones find none left), one day twice.
        const until = m.model.pif_ends < plusDays(lastDay, 1) ? m.model.pif_ends : plusDays(lastDay, 1);
        const span = daysFrom(m.start, until);
        const days = new Set<Day>();
        for (let tries = 0; days.size < Math.min(span, price.visits + 2) && tries < 500; tries++)
          days.add(plusDays(m.start, Math.floor(offerDice() * span)));
        const sorted = [...days].sort();
        m.entries = sorted.length ? [sorted[0], ...sorted] : [];
      }
    }

    /**
     * Issue 22 scenario (defect 1): some members who paid their balance at the desk fail again on
     * the next charge and then switch to a working card inside that grace. The switch retries the
     * balance at once: only what failed after the desk payment (docs/billing.md "Dunning → Debt": a
     * manual payment pays debt off oldest first), never what staff already took. Drawn from its own
     * seeded stream so the rest of the run is the same as without it.
     */
    function planDeskThenRecover(m: SimMember) {
      if (!m.paysAtDesk || ledgerRandom() >= 0.5) return;
      const deskDay = m.paysAtDesk;
      const next = chargesUntil(m.model, lastDay).find((c) => runDay(c.due) >= deskDay);
      if (!next) return;
      const recover = plusDays(runDay(next.due), 1 + Math.floor(ledgerRandom() * (GRACE_DAYS - 2)));
      if (recover > lastDay) return;
      m.recovers = recover;
      m.deskThenRecover = true;
    }
    const byUser = new Map<string, SimMember>();
    const events: Record<string, number> = {};
    const count = (name: string) => {
      events[name] = (events[name] ?? 0) + 1;
    };

    const worldOf = (m: SimMember) => {
      const gym = gyms[m.gym];
      return {
        organisation_id: org.organisation_id,
        gym_id: gym.gym_id,
        gym_name: gym.name,
        stripe_account: gym.account,
        price_id: m.price.price_id,
        offering_id,
        place_id: gym.place_id,
      };
    };

    async function join(m: SimMember) {
      const gym = gyms[m.gym];
      const user = await createUser({
        email: `${m.id}-${options.seed}@sim.example.nz`,
        name: m.name,
        email_verified: true,
      });
      await putRole({
        organisation_id: org.organisation_id,
        user_id: user.user_id,
        member_gym_ids: [gym.gym_id],
      });
      const world = {
        organisation_id: org.organisation_id,
        gym_id: gym.gym_id,
        gym_name: gym.name,
        stripe_account: gym.account,
        price_id: m.price.price_id,
        offering_id,
        place_id: gym.place_id,
      };
      if (m.method === "card")
        await addCard(
          world,
          user,
          m.decline === "soft"
            ? "4000000000009995"
            : m.decline === "hard"
              ? "4000000000009987"
              : "4242424242424242",
        );
      else
        await addBankAccount(
          world,
          user,
          m.decline === "soft" ? "lowfunds" : m.decline === "hard" ? "closed" : "pays",
        );
      const confirm = () =>
        createSubscription({
          organisation_id: org.organisation_id,
          user_id: user.user_id,
          gym_id: gym.gym_id,
          price_id: m.price.price_id,
          start_date: m.start,
          billing_date: m.billing_date,
          ...(m.offer === "promo percent" || m.offer === "promo fixed"
            ? { promo_code: promoCodes[m.offer].code }
            : {}),
        });
      const { subscription } = confirmsTwice(m) ? await confirmedTwiceAtOnce(m, confirm) : await confirm();
      m.user_id = user.user_id;
      m.email = user.email;
      m.subscription_id = subscription.subscription_id;
      byUser.set(user.user_id, m);
      count("joined");
      if (m.offer) count(`joined: ${m.offer}`);
    }

    // ---- scenario: confirming twice at once (issue 22, defect 8) ----
    // Some members' confirm arrives three times at once (a double tap, a phone retrying on a slow
    // network), then once more after it succeeded. Exactly one may make the membership; the others
    // must be refused with 409 `subscription_exists` naming it. The choice uses its own seeded
    // dice, so the other scenarios' choices stay as they were. A second membership would show at
    // the reconciliation as double charges and in the one-membership check after it.
    const twiceDice = prng(options.seed ^ 0x5eed_d0b1);
    const twice = new Set<string>();
    const confirmsTwice = (m: SimMember) => {
      const chosen = twiceDice() < 0.1;
      if (chosen) twice.add(m.id);
      return chosen;
    };
    async function confirmedTwiceAtOnce<T extends { subscription: { subscription_id: string } }>(
      m: SimMember,
      confirm: () => Promise<T>,
    ): Promise<T> {
      count("confirmed twice at once");
      const answers = await Promise.allSettled([confirm(), confirm(), confirm()]);
      const made = answers.filter((a): a is PromiseFulfilledResult<Awaited<T>> => a.status === "fulfilled");
      const winner = made[0]?.value;
      if (!winner) throw new Error(`${m.id}: no confirm of three succeeded`);
      const repeat = await confirm().then(
        () => ({ status: 201, data: undefined }),
        (e: { status?: number; data?: { id?: string } }) => ({ status: e.status, data: e.data }),
      );
      for (const answer of [...answers.filter((a) => a.status === "rejected"), repeat]) {
        const refusal =
          "reason" in answer ? (answer.reason as { status?: number; data?: { id?: string } }) : answer;
        if (refusal.status !== 409 || refusal.data?.id !== winner.subscription.subscription_id)
          count("second confirm not refused with the membership");
      }
      return winner;
    }

    let current: SimMember | null = null;
    let currentDay = day0;
    const accepted = async (name: string, operation: () => Promise<unknown>, detail = "") => {
      try {
        await within(`operation: ${name}`, operation);
        count(name);
        current?.log.push(`${currentDay} ${name}${detail ? ` (${detail})` : ""}`);
        return true;
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status && status >= 400 && status < 500) {
          count(`${name} refused`);
          return false;
        }
        throw error;
      }
    };

    // ---- scenario: member-side pauses, end-inclusive (issue 22, defect 6) ----
    // About half the pauses and pause removals are the member's own, over HTTP with the member's
    // session: the join site's /membership form asks for the first and the LAST paused day and
    // sends `pauseFromDays(values)` to `POST /api/me/subscriptions/{id}/pause`; "Remove this pause"
    // is `DELETE /api/me/subscriptions/{id}/pause`. The model is told the member's two days and
    // pauses both (docs/billing.md "Pauses": member-side pauses are end-inclusive); the answer must
    // show the same last day. Before the fix the form sent the last day as the first day back:
    // a day lost, the member charged a day early. Its own seeded dice (one draw per pause decision).
    const memberDice = prng(options.seed ^ 0x3e3b_e2a5);
    const memberSide = () => scenarios && memberDice() < 0.5;
    const memberTokens = new Map<string, string>();
    const memberApi = new HttpClient(served.url);
    const pauseProblems: { member: string; day: Day; detail: string }[] = [];
    async function asMember(m: SimMember) {
      let token = memberTokens.get(m.user_id);
      if (!token) {
        // A signed-in member's session (the code already passed), as after the join site's sign-in.
        token = (
          await createSession({
            user_id: m.user_id,
            two_factor_passed: true,
            current_organisation_id: org.organisation_id,
          })
        ).token;
        memberTokens.set(m.user_id, token);
      }
      return { Cookie: `gym_session=${token}` };
    }
    const refusedWith = (answer: { status: number; body: unknown }) =>
      Object.assign(new Error(`member call: ${answer.status} ${JSON.stringify(answer.body)}`), {
        status: answer.status,
      });
    async function memberPauses(m: SimMember, id: string, first: Day, last: Day) {
      const answer = await memberApi.post(
        `/api/me/subscriptions/${id}/pause`,
        pauseFromDays({ pause_start_at: first, pause_last_day: last }),
        await asMember(m),
      );
      if (answer.status !== 200) throw refusedWith(answer);
      if (answer.body.data.pause_last_day !== last)
        pauseProblems.push({
          member: m.id,
          day: currentDay,
          detail: `the member's pause ${first} to ${last} (inclusive) was answered with last day ${answer.body.data.pause_last_day}`,
        });
    }
    async function memberRemovesPause(m: SimMember, id: string) {
      const answer = await memberApi.delete(`/api/me/subscriptions/${id}/pause`, await asMember(m));
      if (answer.status !== 200) throw refusedWith(answer);
    }
    // ---- end: member-side pauses ----

    /** A seeded random lifecycle operation for a member, through the same core calls as the routes. */
    async function live(m: SimMember, today: Day) {
      // Trial and pass members only do what their offer scripts (stopping the trial, the door).
      if (!m.subscription_id || m.decline || m.ended) return;
      if (m.offer === "pass" || m.offer === "trial" || m.offer === "trial stopped") return;
      const id = m.subscription_id;
      const model = m.model;
      const recurring = model.frequency !== "one_off";
      const roll = random();
      if (m.cancelled_on) {
        // Undo some cancellations before they take effect.
        if (
          !m.immediate &&
          today > m.cancelled_on &&
          model.cancellation_effective &&
          today < model.cancellation_effective &&
          roll < 0.15
        ) {
          if (await accepted("undo cancellation", async () => ops.undoCancellation(await staff(), id))) {
            model.cancellation_effective = null;
            m.cancelled_on = null;
            // docs/billing.md "Cancellation": undo withdraws a break fee not yet charged (one made
            // on a day without the schedule is charged only when it runs again).
            const charged = m.break_fees.filter((f) => runDay(f.due) < today);
            if (charged.length < m.break_fees.length) count("undo withdrew a break fee not yet charged");
            m.break_fees = charged;
          }
        } else if (model.cancellation_effective && today >= model.cancellation_effective) m.ended = true;
        return;
      }
      if (roll < 0.004) {
        const immediate = chance(0.25);
        // Issue 22 (lifecycle): cancelling with a booked pause removes it and returns its days.
        // The break fee's rate is the gym's (or the organisation's) in effect today.
        const term = m.term && { ...m.term, break_fee_bp: ratesOn(m.gym, today).breakFeeBp };
        const asBooked = decideCancel(model, today, immediate, term);
        const unpaused = withoutBookedPauses(model, today, asBooked.effective);
        const decision = decideCancel(unpaused, today, immediate, term);
        if (
          await accepted(
            immediate ? "cancel immediately" : "cancel",
            async () =>
              ops.cancelSubscription(await staff(), id, { immediate, cancellation_reasons: ["simulated"] }),
            `model: effective ${decision.effective}, break fee ${decision.break_fee}`,
          )
        ) {
          m.cancelled_on = today;
          m.immediate = immediate;
          if (unpaused.pauses.length < model.pauses.length) count("cancel with a booked pause");
          model.pauses = unpaused.pauses;
          model.cancellation_effective = decision.effective;
          if (decision.in_cooling_off) count("cancel in cooling-off");
          if (decision.break_fee > 0) {
            // Charged by the first billing run from today, at the method and rate in force then.
            const method = m.switches.at(-1)?.method ?? m.method;
            const surcharge = method === "card" ? ratesOn(m.gym, runDay(today)).surcharge : null;
            m.break_fees.push({
              due: today,
              kind: "break_fee",
              total: decision.break_fee + (surcharge ? surchargeOn(decision.break_fee, surcharge) : 0),
            });
          }
        }
      } else if (roll < 0.012 && recurring) {
        const pending = model.pauses.some((p) => p.end > today);
        if (pending && chance(0.3)) {
          const pause = model.pauses.filter((p) => p.end > today).at(-1);
          if (!pause || pause.start <= today) return;
          const byMember = memberSide();
          if (
            await accepted(
              byMember ? "member removes own pause" : "remove pause",
              async () => (byMember ? memberRemovesPause(m, id) : ops.removePause(await staff(), id)),
              `${pause.start}→${pause.end}`,
            )
          )
            model.pauses.splice(model.pauses.indexOf(pause), 1);
        } else if (!pending) {
          const start = plusDays(today, chance(0.3) ? 0 : int(1, 20));
          const end = plusDays(start, int(1, 21));
          if (memberSide()) {
            // The member books it on the join site: first day and LAST day (inclusive).
            const last = plusDays(end, -1);
            if (
              await accepted(
                "member pause (last day inclusive)",
                () => memberPauses(m, id, start, last),
                `${start} to ${last}`,
              )
            )
              model.pauses.push(memberPause(start, last));
          } else if (
            await accepted(
              "pause",
              async () =>
                ops.pauseSubscription(await staff(), id, { pause_start_at: start, pause_end_at: end }),
              `${start}→${end}`,
            )
          )
            model.pauses.push({ start, end });
        }
      } else if (roll < 0.016 && recurring && !model.price_change && !m.price.term) {
        const to = raised.get(model.frequency);
        const effective = plusDays(today, int(31, 70));
        if (
          to &&
          (await accepted("price change", async () =>
            ops.schedulePriceChange(await staff(), {
              subscription_ids: [id],
              price_id: to.price_id,
              transition_takes_effect_at: effective,
            }),
          ))
        )
          model.price_change = { effective, amount: to.amount };
      } else if (roll < 0.02 && m.switches.length === 0) {
        // The member switches to a card, or from a card to their bank (the billing hook runs).
        const method = (m.switches.at(-1)?.method ?? m.method) === "card" ? "bank" : "card";
        const user = { user_id: m.user_id, email: m.email, name: m.name };
        const added =
          method === "card"
            ? await addCard(worldOf(m), user, "5555555555554444")
            : await addBankAccount(worldOf(m), user, "pays");
        if (
          await accepted(`switch to ${method}`, () =>
            switchDefaultPaymentType(org.organisation_id, m.user_id, added.payment_type_id),
          )
        )
          m.switches.push({ from: today, method });
      } else if (roll < 0.05 && recurring && today < model.start && model.pauses.length === 0) {
        if (await accepted("start early", async () => ops.startNow(await staff(), id))) {
          const next = startEarly(model, today);
          model.start = next.start;
          model.billing_date = next.billing_date;
          if (m.term)
            m.term = {
              ...m.term,
              ends: termEndOf(next.start, m.price.term?.amount ?? 0, m.price.term?.unit ?? "months"),
              cooling_ends: plusDays(next.start, COOLING_OFF_DAYS),
            };
        }
      }
    }

    // ---- offers (issue 38): a member stops their trial; a pass member comes in ----
    const offerProblems: { member: string; day: Day | null; detail: string }[] = [];
    const { recordVisit } = await import("../../packages/core/src/access/visits");
    async function offerDay(m: SimMember, today: Day) {
      if (!m.subscription_id) return;
      if (m.stopsTrialOn === today && !m.cancelled_on) {
        const answer = await memberApi.post(
          `/api/me/subscriptions/${m.subscription_id}/stop-trial`,
          {},
          await asMember(m),
        );
        if (answer.status === 200) {
          // docs/offers.md "Stopping during the trial": it takes effect at the trial's end.
          count("trial stopped by the member");
          m.cancelled_on = today;
          m.model.cancellation_effective = plusDays(m.model.start, m.model.trial?.days ?? 0);
        } else
          offerProblems.push({
            member: m.id,
            day: today,
            detail: `stopping the trial inside it was answered ${answer.status}`,
          });
      }
      for (const [i, day] of (m.entries ?? []).entries()) {
        if (day !== today) continue;
        const instant = new Date(startOfAucklandDay(day).getTime() + (10 * 60 + i) * 60_000);
        await recordVisit({
          organisation_id: org.organisation_id,
          event_id: `sim-pass-${options.seed}-${m.id}-${i}`,
          gym_id: gyms[m.gym].gym_id,
          user_id: m.user_id,
          member_name: m.name,
          visited_at: instant.toISOString(),
          successful: true,
        });
        count("pass member at the door");
      }
    }
    /** Each pass's visits used, each entry's count and the door after the last visit, against the model. */
    async function checkPasses() {
      for (const m of members) {
        if (m.offer !== "pass" || !m.subscription_id || !m.model.pif_ends) continue;
        const entries = m.entries ?? [];
        const model = passVisits(m.price.visits ?? 0, m.model.pif_ends, entries);
        const sub = await findSubscription(org.organisation_id, m.subscription_id);
        const used = (sub as { pass_visits_used?: number } | null)?.pass_visits_used ?? 0;
        if (used !== model.used)
          offerProblems.push({
            member: m.id,
            day: null,
            detail: `pass visits used ${used}, model ${model.used}`,
          });
        const { data } = await db()
          .entities.visit.query.byMember({ organisation_id: org.organisation_id, user_id: m.user_id })
          .go({ pages: "all" });
        const counted = new Map(
          data.map((v) => [v.event_id, Boolean((v as { pass_visit_used?: boolean }).pass_visit_used)]),
        );
        entries.forEach((day, i) => {
          const engine = counted.get(`sim-pass-${options.seed}-${m.id}-${i}`);
          if (engine !== model.usedBy[i])
            offerProblems.push({
              member: m.id,
              day,
              detail: `entry ${i + 1} used a visit: ${engine}, model ${model.usedBy[i]}`,
            });
        });
        events["pass visits used"] = (events["pass visits used"] ?? 0) + model.used;
        // The door on the run's last day: refused once no visit is left (or the pass has ended).
        const door = passVisits(m.price.visits ?? 0, m.model.pif_ends, [...entries, lastDay]).admitted.at(-1);
        if (!door) {
          count("pass door refused past its visits or its end");
          const access = await staffApi.get(`/api/members/${m.user_id}/access-control`);
          if (access.body?.data?.standing !== false)
            offerProblems.push({
              member: m.id,
              day: lastDay,
              detail: `the door still opens (${JSON.stringify(access.body?.data?.reason ?? access.status)})`,
            });
        }
      }
    }

    // ---- outages: after the one billing run of the day after, nothing due is left unclaimed ----
    const leftByCatchUp: { member: string; due: Day; day: Day }[] = [];
    async function caughtUp(today: Day) {
      count("catch-up after days without the schedule");
      for (const m of members) {
        if (!m.user_id) continue;
        const { data } = await db()
          .entities.payment.query.byMember({ organisation_id: org.organisation_id, user_id: m.user_id })
          .go({ pages: "all" });
        for (const p of data)
          if (p.status === "upcoming" && p.due_on <= today)
            leftByCatchUp.push({ member: m.id, due: p.due_on as Day, day: today });
      }
    }
    // ---- end: outages ----

    // ---- scenario: an unpaid pay-in-full bank transfer (issue 22, defect 5) ----
    // A few extra members (their own seeded dice, so the rest of the run is unchanged) are given a
    // pay-in-full membership by staff, paid by bank transfer (`POST /api/members/{id}/pif` over
    // HTTP as the sim admin), which staff mark received some days later (`POST
    // /api/payments/{id}/received`) or never. docs/billing.md "Pay in full": a transfer not yet
    // received is owed, not paid: the membership's balance owing is the PIF amount (joining fee
    // included) and there is no door access ("Pay-in-full payment not received"); once received it
    // is paid once (owing 0, payments_sum the amount, access back), and a second "received" is
    // refused. Checked every day through the staff `GET /api/subscriptions/{id}` (the call behind
    // the member page), and at the end. Nothing is ever taken from a provider for them.
    const transferDice = prng(options.seed ^ 0x7a4f_e2b0);
    interface TransferMember {
      id: string;
      gym: 0 | 1;
      price: SimPrice;
      join: Day;
      /** The day staff mark it received, or null: never. */
      received: Day | null;
      user_id?: string;
      subscription_id?: string;
      payment_id?: string;
      amount: number;
      ends: Day;
      markedReceived: boolean;
    }
    const transferMembers: TransferMember[] = [];
    /** What the model says staff took: balances at the desk, transfers marked received (the books' check). */
    let modelDesk = 0;
    let modelTransfers = 0;
    const transferProblems: { member: string; day: Day; detail: string }[] = [];
    if (scenarios) {
      const pifs = ["one_off:flexi", "one_off:joining", "one_off:term"];
      const n = Math.max(1, Math.round(options.members * 0.03));
      for (let i = 0; i < n; i++) {
        const price = prices.get(pifs[Math.floor(transferDice() * pifs.length)]) as SimPrice;
        const joinAt = Math.floor(transferDice() * Math.max(1, options.days - 3));
        const join = plusDays(day0, joinAt);
        const wait = transferDice() < 0.25 ? null : Math.floor(transferDice() * 21);
        const received = wait === null ? null : plusDays(join, wait);
        transferMembers.push({
          id: `t${i + 1}`,
          gym: (i % 2) as 0 | 1,
          price,
          join,
          received: received && received <= lastDay ? received : null,
          amount: price.amount + price.joining_fee,
          ends: termEndOf(join, price.term?.amount ?? 12, price.term?.unit ?? "months"),
          markedReceived: false,
        });
      }
    }
    async function checkTransfer(t: TransferMember, today: Day) {
      const read = await staffApi.get(`/api/subscriptions/${t.subscription_id}`);
      if (read.status !== 200) {
        transferProblems.push({ member: t.id, day: today, detail: `reading the membership: ${read.status}` });
        return;
      }
      const sub = read.body.data as {
        balance_owing: number;
        periods_owing: number;
        payments_sum: number;
        door_access: { standing: boolean; reason: string };
      };
      const model = pifTransferStanding(t.amount, t.markedReceived, today, t.ends);
      const want = {
        balance_owing: model.balance_owing,
        payments_sum: model.payments_sum,
        standing: model.door_access,
      };
      const got = {
        balance_owing: sub.balance_owing,
        payments_sum: sub.payments_sum ?? 0,
        standing: sub.door_access?.standing,
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        transferProblems.push({
          member: t.id,
          day: today,
          detail: `${t.markedReceived ? "received" : "not yet received"}: expected ${JSON.stringify(want)}, the API answered ${JSON.stringify(got)} (${sub.door_access?.reason})`,
        });
    }
    async function pifTransfers(today: Day) {
      for (const t of transferMembers) {
        if (t.join === today) {
          const gym = gyms[t.gym];
          const user = await createUser({
            email: `${t.id}-${options.seed}@sim.example.nz`,
            name: `Sim Transfer ${t.id}`,
            email_verified: true,
          });
          await putRole({
            organisation_id: org.organisation_id,
            user_id: user.user_id,
            member_gym_ids: [gym.gym_id],
          });
          const added = await staffApi.post(`/api/members/${user.user_id}/pif`, {
            price_id: t.price.price_id,
            gym_id: gym.gym_id,
            payment_method: "bank_transfer",
          });
          if (added.status !== 201) {
            transferProblems.push({
              member: t.id,
              day: today,
              detail: `pay in full by transfer: ${added.status}`,
            });
            continue;
          }
          count("PIF by bank transfer recorded");
          t.user_id = user.user_id;
          t.subscription_id = added.body.data.id;
          t.payment_id = added.body.data.first_payment?.id;
        }
        if (!t.subscription_id || today < t.join) continue;
        if (t.received === today && t.payment_id) {
          // Two staff click "received" at once: it counts once, the other is refused.
          const answers = await Promise.all([
            staffApi.post(`/api/payments/${t.payment_id}/received`),
            staffApi.post(`/api/payments/${t.payment_id}/received`),
          ]);
          const statuses = answers.map((a) => a.status).sort();
          if (statuses[0] !== 200 || statuses[1] !== 409)
            transferProblems.push({
              member: t.id,
              day: today,
              detail: `marking received twice at once answered ${statuses.join(", ")} (expected 200 and 409)`,
            });
          t.markedReceived = statuses.includes(200);
          if (t.markedReceived) modelTransfers += t.amount;
          count("PIF transfer marked received");
        }
        if (!t.markedReceived || t.received === today) await checkTransfer(t, today);
      }
    }
    // ---- end: unpaid PIF transfer ----

    // ---- the ledger's invariants after every day (docs/billing.md "The ledger's invariants") ----
    // The whole organisation's check (every subscription against every payment, and the scheduled
    // counters) every seventh day and on the last; on the other days the subscriptions whose records
    // were written that day (ledger-writes.ts: an untouched one gives the same answer), unless a
    // write could not be placed.
    const { checkOrganisationLedgers, checkSubscriptionLedgers } = await import(
      "../../packages/core/src/payment/ledger-check"
    );
    let ledgerChecks = 0;
    const invariantBreaks: SimulationResult["invariant_breaks"] = [];
    const broken = new Set<string>();
    async function checkLedgers(today: Day) {
      const written = ledgerWrites.take();
      const whole = written.unplaced || today === lastDay || daysFrom(day0, today) % 7 === 6;
      const { checked, breaks } = await within("the ledger check (the simulation's own reads)", async () =>
        whole
          ? await checkOrganisationLedgers(org.organisation_id)
          : {
              checked: written.subscriptionIds.length,
              breaks: await checkSubscriptionLedgers(
                written.subscriptionIds.map((subscription_id) => ({
                  organisation_id: org.organisation_id,
                  subscription_id,
                })),
              ),
            },
      );
      ledgerChecks += checked;
      for (const b of breaks) {
        if (broken.has(b.subscription_id)) continue;
        broken.add(b.subscription_id);
        const member =
          [...members, ...transferMembers].find((m) => m.subscription_id === b.subscription_id)?.id ?? "?";
        invariantBreaks.push({ ...b, day: today, member });
      }
    }
    // ---- end: the ledger's invariants ----

    // ---- the walk ----
    const joinsOn = new Map<Day, SimMember[]>();
    for (const m of members) joinsOn.set(m.join_day, [...(joinsOn.get(m.join_day) ?? []), m]);
    const settle = () =>
      within("providers: settlement and webhooks", async () => {
        await sim.settleSimulatedNow();
        await sim.flushSimulatedWebhooks();
      });
    for (let d = 0; d < options.days; d++) {
      const today = plusDays(day0, d);
      traceDay = today;
      options.onProgress?.(d, options.days, today);
      // The catch-up records a payout of the days before whose payout.paid was lost (issue 37).
      await runJob("payout-catch-up", await at(today, 6, 30));
      await at(today, 7);
      // Stripe pays out what settled before today (asynchronously: delivered with the day's settlement).
      stripePayouts.paySimulatedStripePayouts(today, SIMULATED_STRIPE_WEBHOOK_SECRET);
      await within("operation: change gym rates", () => changeGymRates(today));
      for (const m of joinsOn.get(today) ?? [])
        await within("join (register, payment type, subscribe)", () => join(m));
      await within("PIF transfers", () => pifTransfers(today));
      currentDay = today;
      for (const m of members) {
        if (m.paysAtDesk === today && m.subscription_id) {
          // Staff take the balance the model says is owing (every charge so far declined).
          const owing = chargesUntil(m.model, plusDays(today, -1))
            .filter((c) => runDay(c.due) < today)
            .reduce((sum, c) => sum + c.amount, 0);
          const id = m.subscription_id;
          current = m;
          if (
            owing > 0 &&
            (await accepted("manual payment of the balance", async () =>
              ops.recordManualPayment(await staff(), id, { amount: owing, payment_method: "eftpos" }),
            ))
          ) {
            m.log.push(`${today} paid ${owing} at the desk`);
            modelDesk += owing;
          } else m.paysAtDesk = null;
        }
        if (m.recovers !== today || !m.user_id) continue;
        current = m;
        const added = await addCard(
          worldOf(m),
          { user_id: m.user_id, email: m.email, name: m.name },
          "4242424242424242",
        );
        if (
          await accepted("recover by switching to a working card", () =>
            switchDefaultPaymentType(org.organisation_id, m.user_id, added.payment_type_id),
          )
        )
          m.switches.push({ from: today, method: "card" });
      }
      for (const m of members) {
        current = m;
        await within("member's day (other reads and writes)", () => live(m, today));
        if (m.stopsTrialOn || m.entries)
          await within("offers (a trial stopped, the door)", () => offerDay(m, today));
      }
      current = null;

      // The billing run of the day, with faults: two runs at once, a crash after the provider call
      // (before our write), a provider timeout.
      const nine = await at(today, 9);
      // The fault dice are drawn on every day, outage or not, so the rest of the run keeps its choices.
      const crashToday = options.faults && chance(0.1);
      const timeoutToday = options.faults && chance(0.1);
      const twoRunsToday = options.faults && chance(0.15);
      if (outage.has(today)) {
        // The schedule is down: nothing runs; webhooks still arrive.
        count("day without the schedule");
        await settle();
        await checkLedgers(today);
        continue;
      }
      crashArmed = crashToday;
      if (timeoutToday) {
        sim.setSimulatedChaos({ timeoutNextCharge: true });
        count("provider timeout armed");
      }
      if (twoRunsToday) {
        count("two billing runs at once");
        await Promise.all([runJob("billing-run", nine), runJob("billing-run", nine)]);
      } else await runJob("billing-run", nine);
      if (catchUp.has(today)) await caughtUp(today);
      crashArmed = false;
      sim.setSimulatedChaos({ timeoutNextCharge: false });
      await settle();
      // Recovery of anything claimed but unrecorded, then settlement of dropped webhooks by polling.
      await runJob("payment-polling", await at(today, 9, 15));
      await settle();
      await runJob("payment-polling", await at(today, 9, 30));
      const ten = await at(today, 10);
      await runJob("payment-retries", ten);
      await settle();
      await runJob("payment-polling", await at(today, 10, 15));
      await runJob("payment-polling", await at(today, 10, 30));
      await runJob("grace-expiry", await at(today, 11));
      await checkLedgers(today);
    }
    options.onProgress?.(options.days, options.days, lastDay);
    await settle();
    await runJob("payment-polling", await at(lastDay, 23));

    // ---- the daily reconciliation against the providers (issue 22): it must find nothing ----
    const reconciled = await runJob("reconciliation", await at(lastDay, 23, 30));
    doing = "reconciling the run (the simulation's own reads)";
    events["reconciliation: payments checked"] = reconciled.summary.checked;
    events["reconciliation: mismatches"] = reconciled.summary.mismatches;
    const { data: providerMismatches } = await db()
      .entities.reconciliationMismatch.query.primary({ organisation_id: org.organisation_id })
      .go({ pages: "all" });
    // ---- end: reconciliation ----

    // ---- reconcile ----
    const payments = new Map<string, { user_id: string; due_on: string; is_retry: boolean; kind?: string }>();
    const engineLines = new Map<string, string[]>();
    const subscriptionLines = new Map<string, string[]>();
    for (const m of members) {
      if (!m.user_id) continue;
      const { data } = await db()
        .entities.payment.query.byMember({ organisation_id: org.organisation_id, user_id: m.user_id })
        .go({ pages: "all" });
      engineLines.set(
        m.id,
        data
          .sort((a, b) => (a.due_on < b.due_on ? -1 : 1))
          .map((p) => {
            const record = p as PaymentRecord;
            const extra = [
              `id ${p.payment_id}`,
              `${p.type}`,
              record.credit_used ? `credit_used ${record.credit_used}` : "",
              record.waiting_for ? `waiting_for ${record.waiting_for}` : "",
              record.attempts ? `attempts ${record.attempts}` : "",
              record.stripe_id ? `stripe ${record.stripe_id}` : "",
              record.akahu_id ? `akahu ${record.akahu_id}` : "",
              record.claimed_at ? `claimed ${record.claimed_at}` : "",
              record.charged_at ? `charged ${record.charged_at}` : "",
              record.settled_at ? `settled ${record.settled_at}` : "",
              record.error_status ? `error ${record.error_status}: ${record.error_description ?? ""}` : "",
              record.poll_count ? `polls ${record.poll_count}` : "",
              `v${p.version}`,
            ].filter(Boolean);
            return `${p.due_on} ${p.status}${p.is_retry ? " retry" : ""} #${p.charge_index ?? "-"} ${p.amount}+${p.surcharge ?? 0} ${p.period_start_at?.slice(0, 10) ?? ""}→${p.period_end_at?.slice(0, 10) ?? ""} [${extra.join(", ")}]`;
          }),
      );
      if (options.traceMembers?.includes(m.id) && m.subscription_id) {
        const sub = await findSubscription(org.organisation_id, m.subscription_id);
        if (sub)
          subscriptionLines.set(m.id, [
            `state upcoming ${sub.upcoming_payment_id ?? "-"}, last_charge_index ${sub.last_charge_index ?? "-"}, last_period_end ${sub.last_period_end ?? "-"}, period ${sub.current_period_start?.slice(0, 10) ?? "-"}→${sub.current_period_end?.slice(0, 10) ?? "-"}, ${sub.payment_method} ${sub.payment_type_id ?? "-"}, waiting_for_consent ${Boolean(sub.waiting_for_consent)}, owing ${sub.balance_owing ?? 0}, credit ${sub.credit_balance ?? 0}, paid ${sub.payments_sum ?? 0}, v${sub.version}`,
            ...(sub.lifecycle_events ?? []).map((e) => `event ${e.at} ${e.action}: ${e.detail}`),
          ]);
      }
      for (const p of data)
        payments.set(p.payment_id, {
          user_id: p.user_id,
          due_on: p.due_on,
          is_retry: p.is_retry,
          kind: (p.meta as { kind?: string } | undefined)?.kind,
        });
    }
    if (options.plantDoubleCharge) await plantDoubleCharge();

    const taken: TakenCharge[] = [];
    const unattributed: { idempotency_key: string; amount: number }[] = [];
    const attempts = new Map<string, DecliningMember["attempts"]>();
    for (const entry of sim.simulatedLedger()) {
      const paymentId = entry.idempotency_key.startsWith("payment-") ? entry.idempotency_key.slice(8) : null;
      const p = paymentId ? payments.get(paymentId) : undefined;
      const m = p ? byUser.get(p.user_id) : undefined;
      if (!p || !m) {
        if (entry.taken) unattributed.push({ idempotency_key: entry.idempotency_key, amount: entry.amount });
        continue;
      }
      const kind = p.is_retry ? "retry" : p.kind === "break_fee" ? "break_fee" : "period";
      if (m.decline && !(m.recovers && m.switches.length > 0))
        attempts.set(m.id, [...(attempts.get(m.id) ?? []), { due: p.due_on, kind, taken: entry.taken }]);
      else if (entry.taken)
        taken.push({
          member: m.id,
          idempotency_key: entry.idempotency_key,
          amount: entry.amount,
          due: p.due_on,
          kind,
        });
    }

    const expected = new Map<string, ExpectedCharge[]>();
    const declining: DecliningMember[] = [];
    for (const m of members) {
      if (!m.user_id) continue;
      // The rate in force on the day a charge is made (the first day the schedule runs from its due date).
      const cardSurcharge = (day: Day) => ratesOn(m.gym, day).surcharge;
      const recovered = m.recovers !== null && m.switches.length > 0 ? m.recovers : null;
      if (recovered) {
        // Every charge before the switch failed; the switch retries their sum at once on the card.
        const charges = chargesUntil(m.model, lastDay);
        // What staff took at the desk is paid: only the charges that failed after it are owing.
        const desk = m.deskThenRecover ? m.paysAtDesk : null;
        // A charge fails on the day it is made: what falls due in an outage fails when the schedule is back.
        const balance = charges
          .filter((c) => runDay(c.due) < recovered && (!desk || runDay(c.due) >= desk))
          .reduce((sum, c) => sum + c.amount, 0);
        expected.set(m.id, [
          ...(balance > 0
            ? [
                {
                  due: recovered,
                  kind: "retry" as const,
                  total: balance + surchargeOn(balance, cardSurcharge(recovered)),
                },
              ]
            : []),
          ...charges
            .filter((c) => runDay(c.due) >= recovered)
            .map((c) => ({
              due: c.due,
              kind: "period" as const,
              total: c.amount + surchargeOn(c.amount, cardSurcharge(runDay(c.due))),
            })),
        ]);
        continue;
      }
      if (m.decline) {
        // A balance paid at the desk ends that grace; the next failure starts a new one.
        const paid = m.paysAtDesk;
        // Grace counts from the failure, on the day the charge is made (after an outage: the day after).
        const firstDue = paid
          ? (chargesUntil(m.model, lastDay).find((c) => runDay(c.due) >= paid)?.due ?? plusDays(lastDay, 1))
          : (chargesUntil(m.model, lastDay)[0]?.due ?? m.start);
        const graceEnds = plusDays(runDay(firstDue), GRACE_DAYS);
        const sub = m.subscription_id ? await findSubscription(org.organisation_id, m.subscription_id) : null;
        declining.push({
          member: m.id,
          hard: m.decline === "hard",
          grace_ends: graceEnds,
          attempts: attempts.get(m.id) ?? [],
          cancelled: Boolean(sub?.cancelled_at),
          past_grace: firstDue <= lastDay && graceEnds <= lastDay,
        });
        continue;
      }
      const methodOn = (day: Day) => m.switches.filter((x) => x.from <= day).at(-1)?.method ?? m.method;
      expected.set(m.id, [
        // A $0.00 charge (a free trial, a period a code takes whole) is paid with no provider call.
        ...chargesUntil(m.model, lastDay)
          .filter((c) => c.amount > 0)
          .map((c) => ({
            due: c.due,
            kind: "period" as const,
            total:
              c.amount +
              (methodOn(runDay(c.due)) === "card" ? surchargeOn(c.amount, cardSurcharge(runDay(c.due))) : 0),
          })),
        ...m.break_fees,
      ]);
    }
    const result = reconcile({ expected, taken, declining, unattributed });
    await within("the reconciliation's own reads", () => checkPasses());
    for (const problem of offerProblems)
      result.discrepancies.push({
        member: problem.member,
        due: problem.day,
        expected: 0,
        charged: 0,
        reason: "unexpected",
        detail: `offer: ${problem.detail}`,
      });
    // One membership per member (the sim never rejoins): a member confirmed twice at once has one.
    const { memberSubscriptions } = await import("../../packages/core/src/subscription/store");
    for (const m of members) {
      if (!m.user_id) continue;
      const made = (await memberSubscriptions(org.organisation_id, m.user_id)).length;
      if (made === 1) continue;
      result.double_charges += 1;
      result.discrepancies.push({
        member: m.id,
        due: null,
        expected: 1,
        charged: made,
        reason: "double",
        detail: `${made} memberships${twice.has(m.id) ? " after confirming three times at once" : ""}`,
      });
    }
    if (events["second confirm not refused with the membership"])
      result.discrepancies.push({
        member: "-",
        due: null,
        expected: 0,
        charged: events["second confirm not refused with the membership"],
        reason: "unexpected",
        detail: "a second confirm was not answered 409 subscription_exists with the membership",
      });
    // ---- issue 22 scenarios: what they check besides the money taken ----
    for (const t of transferMembers) if (t.subscription_id) await checkTransfer(t, lastDay);
    for (const problem of [...transferProblems, ...pauseProblems])
      result.discrepancies.push({
        member: problem.member,
        due: problem.day,
        expected: 0,
        charged: 0,
        reason: "unexpected",
        detail: problem.detail,
      });
    for (const left of leftByCatchUp)
      result.discrepancies.push({
        member: left.member,
        due: left.due,
        expected: 0,
        charged: 0,
        reason: "missed",
        detail: `still unclaimed after the one billing run of ${left.day} that followed days without the schedule`,
      });
    // ---- end: issue 22 scenarios ----
    // ---- reconciliation mismatches are discrepancies too (issue 22) ----
    for (const mismatch of providerMismatches) {
      result.discrepancies.push({
        member: byUser.get(mismatch.user_id)?.id ?? mismatch.user_id,
        due: mismatch.due_on as Day,
        expected: mismatch.our_amount,
        charged: mismatch.provider_amount ?? 0,
        reason: "unexpected",
        detail: `provider reconciliation (${mismatch.provider} ${mismatch.provider_id}, ${mismatch.kind}): ${mismatch.detail}`,
      });
    }
    // ---- end: reconciliation mismatches ----
    await checkLedgers(lastDay);
    // ---- the books (issue 37): the run's journals against the model's money ----
    doing = "the books (Xero journals of the run)";
    await at(plusDays(lastDay, 1), 1);
    // The last day's charges settle, then Stripe pays out everything settled: its payout.paid goes out
    // (again, for one the app turned away), and the catch-up job records a payout whose event was lost.
    await sim.settleSimulatedNow();
    await sim.flushSimulatedWebhooks();
    stripePayouts.paySimulatedStripePayouts(plusDays(lastDay, 1), SIMULATED_STRIPE_WEBHOOK_SECRET);
    await sim.settleSimulatedNow();
    await sim.flushSimulatedWebhooks();
    await runJob("payout-catch-up", await at(plusDays(lastDay, 1), 2));
    const books = { ...(await simulatedBooks(org.organisation_id, day0, lastDay)), model: 0 };
    const payouts = await simulatedPayouts(org.organisation_id);
    // Every payout Stripe paid is recorded once with exactly its charges, each adds up, their total
    // is what Stripe paid out, and what it paid out plus what is in transit is the journals' card
    // payments, to the cent (issue 37; docs/accounting.md "The simulated year").
    const payoutsAgree =
      payouts.gross === payouts.paid_out.gross &&
      payouts.fees === payouts.paid_out.fees &&
      payouts.paid_out.gross + payouts.in_transit.gross === books.cards;
    if (payouts.problems.length || payouts.mismatches.length || !payoutsAgree)
      result.discrepancies.push({
        member: "-",
        due: null,
        expected: books.cards,
        charged: payouts.gross + payouts.in_transit.gross,
        reason: "amount",
        detail: `payouts: ${payouts.payouts} recorded hold ${payouts.gross} (fees ${payouts.fees}); Stripe paid out ${payouts.paid_out.gross} (fees ${payouts.paid_out.fees}) in ${payouts.paid_out.payouts}, ${payouts.in_transit.gross} in transit; the journals' card payments ${books.cards}${[...payouts.mismatches, ...payouts.problems].length ? `; ${[...payouts.mismatches, ...payouts.problems].slice(0, 3).join("; ")}` : ""}`,
      });
    books.model = result.total_expected + modelDesk + modelTransfers;
    const split = books.income + books.surcharges + books.fees + books.credit;
    if (books.unbalanced.length || books.collected !== books.model || split !== books.collected)
      result.discrepancies.push({
        member: "-",
        due: null,
        expected: books.model,
        charged: books.collected,
        reason: "amount",
        detail: `books: the journals collected ${books.collected} (income ${books.income}, surcharges ${books.surcharges}, fees ${books.fees}, credit ${books.credit}), the model ${books.model}${books.unbalanced.length ? `; unbalanced: ${books.unbalanced.slice(0, 3).join("; ")}` : ""}`,
      });
    // ---- end: the books ----
    const byId = new Map(members.map((m) => [m.id, m]));
    // For `trace`: the providers' ledger and webhook deliveries, by member.
    const ledger = sim.simulatedLedger();
    const deliveries = sim.simulatedDeliveries();
    const memberOfKey = (key: string) => {
      const id = key.replace(/^someone-else-/, "").replace(/^payment-/, "");
      const p = payments.get(id);
      return p ? byUser.get(p.user_id)?.id : undefined;
    };
    const memberOfProviderId = new Map<string, string | undefined>();
    for (const e of ledger) memberOfProviderId.set(e.provider_id, memberOfKey(e.idempotency_key));
    return {
      ...result,
      ledger_checks: ledgerChecks,
      invariant_breaks: invariantBreaks,
      books,
      payouts,
      seed: options.seed,
      days: options.days,
      ms: performance.now() - started,
      requests,
      localRequests,
      requestsBy,
      events,
      trace(member) {
        const m = byId.get(member);
        if (!m) return [];
        return [
          ...m.log.map((l) => `  op      ${l}`),
          ...chargesUntil(m.model, lastDay).map(
            (c) => `  model   ${c.due} #${c.index} ${c.amount} ${c.period_start}→${c.period_end}`,
          ),
          ...(engineLines.get(m.id) ?? []).map((l) => `  engine  ${l}`),
          ...(subscriptionLines.get(m.id) ?? []).map((l) => `  sub     ${l}`),
          ...providerCalls
            .filter((c) => c.user_id === m.user_id)
            .map(
              (c) =>
                `  call    ${c.day} ${c.doing}: ${c.payment_id} → ${c.outcome}${c.crash ? " — CRASH injected after it" : ""}`,
            ),
          ...ledger
            .filter((e) => memberOfKey(e.idempotency_key) === m.id)
            .map(
              (e) =>
                `  ledger  ${e.created_at} ${e.provider} ${e.provider_id} ${e.idempotency_key} ${e.amount} ${e.status}${e.taken ? " taken" : ""}${e.failure_code ? ` ${e.failure_code}` : ""}`,
            ),
          ...deliveries
            .filter((d) => memberOfProviderId.get(d.provider_id) === m.id)
            .map(
              (d) =>
                `  webhook ${d.at} ${d.type} ${d.provider_id} ${d.outcome}${d.duplicate ? " (again)" : ""}${d.retry ? ` retry ${d.retry}` : ""}`,
            ),
        ];
      },
      describe(member) {
        const m = byId.get(member);
        if (!m) return member;
        return `${m.id} (${m.model.frequency} ${m.price.term ? "term" : m.model.frequency === "one_off" ? "PIF" : "flexi"}, ${m.method}${m.switches.map((x) => ` → ${x.method} from ${x.from}`).join("")}, gym ${m.gym + 1}, start ${m.model.start}, billing ${m.model.billing_date}${m.model.pauses.length ? `, pauses ${m.model.pauses.map((p) => `${p.start}→${p.end}`).join(" ")}` : ""}${m.model.price_change ? `, price ${m.model.price_change.amount} from ${m.model.price_change.effective}` : ""}${m.model.cancellation_effective ? `, cancelled from ${m.model.cancellation_effective}` : ""})`;
      },
    };

    /** A second charge for a good card member's latest period, as a buggy engine would make it. */
    async function plantDoubleCharge() {
      const entry = sim
        .simulatedLedger()
        .find((e) => e.taken && e.provider === "stripe" && payments.has(e.idempotency_key.slice(8)));
      if (!entry) throw new Error("no charge to double");
      sim.recordCharge(`planted:${entry.account}`, {
        ...entry,
        provider_id: `pi_planted_${entry.provider_id}`,
        idempotency_key: `${entry.idempotency_key}`,
        created_at: new Date().toISOString(),
      });
    }
  } finally {
    const { chargeHooks } = await import("../../packages/core/src/payment/charge");
    chargeHooks.afterProviderCall = undefined;
    await closeServer?.();
    await dynamo.stop();
  }
}
