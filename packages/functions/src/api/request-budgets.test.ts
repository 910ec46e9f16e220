/**
 * Every operation in the OpenAPI document within its budget of DynamoDB requests and rounds
 * (request-budgets.ts; issue 36), measured as it succeeds. Each is called once on the seeded demo
 * organisation (its gyms configured as `npm start` seeds them: Stripe, Kisi, Akahu, a logo): the
 * operations in tests/support/request-budget-scenarios.ts, and register and subscribe here, are set
 * up to succeed first (the member, membership, token or signed event each needs, made without being
 * counted); the rest are called as the organisation's admin (a fresh session each, so an operation
 * that ends sessions leaves the next one signed in) with this organisation's ids and the body's
 * documented example. An answer that is not one of the operation's documented successes fails the
 * test, unless its budget row names that error path (`errorPath`).
 * `REQUEST_BUDGETS_OUT=<file>` writes the rows (npm run bench -- --requests prints them).
 */
import { writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { countRounds, formatRows, type OperationRow, overBudget } from "../../../../tests/bench/requests";
import { latestCode, useSeededApi } from "../../../../tests/support/api";
import { HttpClient } from "../../../../tests/support/http";
import {
  type DocumentedOperation,
  documentedBody,
  documentedOperations,
} from "../../../../tests/support/openapi-operations";
import { type SeededPayments, seedPayments } from "../../../../tests/support/payments";
import { budgetScenarios, type Call } from "../../../../tests/support/request-budget-scenarios";
import { requestBudgets } from "./request-budgets";

const api = useSeededApi();
let counter: Awaited<ReturnType<typeof countRounds>>;
let seeded: SeededPayments;
let priceId: string;
let adminId: string;
let organisationId: string;

type Operation = DocumentedOperation;

/** The documented operations; the local runtime's extras (simulated providers, the mailbox, the clock) are not in AWS. */
const operations = async () =>
  (await documentedOperations(api.url)).filter((op) => !op.path.startsWith("/api/dev/"));

/** A signed-in session of a person, made through core (no emailed code: a person may get 5 an hour). */
async function sessionOf(userId: string) {
  const { createSession } = await import("@gym/core/auth/session");
  const { token } = await createSession({
    user_id: userId,
    two_factor_passed: true,
    current_organisation_id: organisationId,
  });
  return { Cookie: `gym_session=${token}` };
}

/** Register and subscribe as the join site calls them; every other operation's success: request-budget-scenarios.ts. */
const joinScenarios = (): Record<string, () => Promise<Call>> => ({
  "POST /api/register": async () => {
    const { businessToday } = await import("@gym/core/clock");
    return {
      path: "/api/register",
      client: new HttpClient(api.url),
      body: {
        gym: api.seed.gyms.ponsonby.uuid,
        price_id: priceId,
        name: "budget applicant",
        email: "budget.applicant@example.nz",
        mobile_number: "021 123 4567",
        dob: "1990-01-01",
        password: "a long passphrase",
        start_date: await businessToday(),
      },
    };
  },
  "POST /api/subscriptions": async () => {
    // A person who registered and passed the code, with a card saved: their confirm.
    const client = new HttpClient(api.url);
    const email = "budget.subscriber@example.nz";
    const { businessToday } = await import("@gym/core/clock");
    const registered = await client.post("/api/register", {
      gym: api.seed.gyms.ponsonby.uuid,
      price_id: priceId,
      name: "budget subscriber",
      email,
      mobile_number: "021 123 4568",
      dob: "1990-01-01",
      password: "a long passphrase",
      start_date: await businessToday(),
    });
    if (registered.status !== 201) throw new Error(`register: ${JSON.stringify(registered.body)}`);
    const verified = await client.post("/api/email/verify", { code: await latestCode(client, email) });
    if (verified.status !== 200)
      throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
    // The card as the simulated Stripe form saves it (tests/support/payments.ts `addMember`).
    const { addPaymentType } = await import("@gym/core/payment-type/service");
    const userId = (await client.get("/api/me")).body.data.id;
    await addPaymentType(organisationId, userId, {
      type: "stripe_card",
      status: "active",
      card_type: "visa",
      exp_month: 12,
      exp_year: 2030,
      last_four: "4242",
      country: "NZ",
      stripe_customer_id: `cus_${userId}`,
      stripe_payment_method_id: `pm_${userId}`,
      stripe_account: "acct_test",
      gym_id: api.seed.gyms.ponsonby.gym_id,
    });
    return { path: "/api/subscriptions", client, body: {} };
  },
});

const rows: OperationRow[] = [];
const noCount = (operation: string): OperationRow => ({
  operation,
  status: 0,
  requests: 0,
  rounds: 0,
  budget: requestBudgets[operation] ?? null,
  byCommand: {},
});

beforeAll(async () => {
  const { seedOfferings } = await import("../local/seed/offerings");
  const seededOfferings = await seedOfferings(api.seed);
  // The demo gyms as configured (Stripe, Kisi, Akahu, a logo): an operation works as it does for a gym in use.
  const { seedGyms } = await import("../local/seed/gyms");
  await seedGyms(api.seed);
  priceId = seededOfferings.prices.anytimeWeekly.price_id;
  seeded = await seedPayments(api.seed, seededOfferings, 2, "budget");
  organisationId = api.seed.organisations.harbour.organisation_id;
  adminId = api.seed.people.admin.user_id;
  counter = await countRounds("budget-");
  const scenarios: Record<string, (op: Operation) => Promise<Call>> = {
    ...budgetScenarios({ url: api.url, seed: api.seed, offerings: seededOfferings, sessionOf }),
    ...joinScenarios(),
  };

  // This organisation's ids, by the path segment that names them.
  const admin = await sessionOf(adminId);
  const client = new HttpClient(api.url);
  const known: Record<string, string> = {
    organisations: organisationId,
    gyms: api.seed.gyms.ponsonby.gym_id,
    members: seeded.card.userId,
    users: seeded.card.userId,
    payments: seeded.card.paymentId,
    staff: api.seed.people.trainer.user_id,
    prices: priceId,
  };
  const offerings = await client.get("/api/offerings", admin);
  known.offerings = offerings.body.data[0].id;
  const { memberSubscriptions } = await import("@gym/core/subscription/store");
  known.subscriptions = (await memberSubscriptions(organisationId, seeded.card.userId))[0].subscription_id;
  const fill = (path: string) =>
    path.replace(/\{([^}]+)\}/g, (_, _param: string, offset: number) => {
      const before = path.slice(0, offset).split("/").filter(Boolean);
      return encodeURIComponent(known[before[before.length - 1] ?? ""] ?? known.members);
    });

  // Reads first, side by side (each counted by its request id), then writes one at a time,
  // deletes last, so a write does not take away what a read needs.
  let sent = 0;
  const run = async (op: Operation) => {
    const operation = `${op.method} ${op.path}`;
    const scenario = scenarios[operation];
    let call: Call;
    try {
      call = scenario
        ? await scenario(op)
        : {
            path: fill(op.path),
            body: documentedBody(op),
            headers: {
              ...op.headers,
              ...(op.access === "public" ? {} : await sessionOf(adminId)),
            },
          };
    } catch (error) {
      // A scenario that could not be set up fails this operation, not the whole run.
      rows.push({ ...noCount(operation), error: `set-up failed: ${(error as Error).message}` });
      return;
    }
    const requestId = `budget-${++sent}-${operation.replace(/\W+/g, "_")}`.slice(0, 64);
    const answer = await (call.client ?? client).request(op.method, call.path, call.body, {
      ...call.headers,
      "X-Request-Id": requestId,
    });
    const count = await counter.of(requestId);
    const succeeded = op.successes.includes(answer.status) || (answer.status >= 200 && answer.status < 300);
    rows.push({
      operation,
      status: answer.status,
      ...(succeeded ? {} : { error: JSON.stringify(answer.body ?? null).slice(0, 300) }),
      requests: count.requests,
      rounds: count.rounds,
      budget: requestBudgets[operation] ?? null,
      byCommand: count.byCommand,
      ...(count.trace ? { trace: count.trace } : {}),
    });
  };
  const ops = await operations();
  const reads = ops.filter((op) => op.method === "GET");
  for (let at = 0; at < reads.length; at += 8) await Promise.all(reads.slice(at, at + 8).map(run));
  for (const op of ops.filter((op) => !["GET", "DELETE"].includes(op.method))) await run(op);
  for (const op of ops.filter((op) => op.method === "DELETE")) await run(op);
  if (process.env.REQUEST_BUDGETS_OUT) writeFileSync(process.env.REQUEST_BUDGETS_OUT, JSON.stringify(rows));
}, 300_000);

describe("every documented operation's DynamoDB requests", () => {
  it("are within its budget (request-budgets.ts), in requests and in rounds", () => {
    expect(rows.length).toBeGreaterThan(50);
    const over = rows.filter(overBudget);
    expect(over, formatRows(over)).toEqual([]);
  });

  it("has no budget for an operation the document does not have", () => {
    const documented = new Set(rows.map((row) => row.operation));
    expect(Object.keys(requestBudgets).filter((operation) => !documented.has(operation))).toEqual([]);
  });

  it("measures each operation on a success, or on the error path its row names", () => {
    const wrong = rows.filter((row) => {
      const errorPath = requestBudgets[row.operation]?.errorPath;
      return errorPath ? row.status !== errorPath.status : row.error !== undefined;
    });
    expect(wrong.map((row) => `${row.operation} answered ${row.status} ${row.error ?? ""}`)).toEqual([]);
  });
});
