/**
 * What a member's page and the members list cost in DynamoDB requests (issue 27: the load the API
 * holds): a fixed number whatever the member has, the session and its roles included, within each
 * operation's one budget (packages/functions/src/api/request-budgets.ts). The page reads the member,
 * their user, profile, bank connection and organisation in one batch, the rest side by side.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { countDynamoRequests, measured, type RequestCount } from "../../../../tests/bench/measure";
import { signIn, useSeededApi } from "../../../../tests/support/api";
import type { HttpClient } from "../../../../tests/support/http";
import { addMember, type SeededPayments, seedPayments } from "../../../../tests/support/payments";
import { requestBudgets } from "../../../functions/src/api/request-budgets";

// The one budget of each operation (request-budgets.ts), not a second copy of it.
const pageBudget = requestBudgets["GET /api/members/{id}"].requests;
const listBudget = requestBudgets["GET /api/members"].requests;

const api = useSeededApi();
let counts: RequestCount;
let admin: HttpClient;
let trainer: HttpClient;
let seeded: SeededPayments;
let withoutMembership: string;

beforeAll(async () => {
  const { seedOfferings } = await import("../../../functions/src/local/seed/offerings");
  seeded = await seedPayments(api.seed, await seedOfferings(api.seed), 2, "reader");
  withoutMembership = (
    await addMember(api.seed, {
      name: "nia none",
      email: "nia.none@example.net",
      gymId: api.seed.gyms.newmarket.gym_id,
    })
  ).user.user_id;
  [admin, trainer] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
  ]);
  counts = await countDynamoRequests();
  counts.counting = false;
});

async function countWhile<T>(work: () => Promise<T>) {
  Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
  try {
    const result = await work();
    return {
      result,
      requests: measured(counts),
      detail: JSON.stringify({ byCommand: counts.byCommand, aside: counts.aside }),
    };
  } finally {
    counts.counting = false;
  }
}

describe("a member's page", () => {
  it("costs at most its budget of DynamoDB requests (request-budgets.ts), session and roles included, with a membership and payments or without", async () => {
    const full = await countWhile(() => admin.get(`/api/members/${seeded.card.userId}`));
    expect(full.result.status).toBe(200);
    expect(full.result.body.data.latest_subscription).not.toBeNull();
    expect(full.result.body.data.recent_payments.length).toBeGreaterThan(0);
    expect(full.result.body.data.gyms).toEqual([
      { id: api.seed.gyms.ponsonby.gym_id, name: expect.any(String) },
    ]);
    expect(full.requests, full.detail).toBeLessThanOrEqual(pageBudget);

    const bare = await countWhile(() => admin.get(`/api/members/${withoutMembership}`));
    expect(bare.result.status).toBe(200);
    expect(bare.result.body.data.latest_subscription).toBeNull();
    expect(bare.requests, bare.detail).toBeLessThanOrEqual(pageBudget);
  });

  it("still answers 404 for a member out of a trainer's reach, and a trainer the page an admin sees", async () => {
    const other = await trainer.get(`/api/members/${seeded.bank.userId}`);
    expect(other.status).toBe(404);
    const mine = await trainer.get(`/api/members/${seeded.card.userId}`);
    expect(mine.status).toBe(200);
    const byAdmin = await admin.get(`/api/members/${seeded.card.userId}`);
    expect(mine.body.data).toEqual(byAdmin.body.data);
  });
});

describe("the members list", () => {
  it("costs at most its budget of DynamoDB requests a page (request-budgets.ts), however many members it shows", async () => {
    const page = await countWhile(() => admin.get("/api/members?per_page=100"));
    expect(page.result.status).toBe(200);
    expect(page.result.body.data.length).toBeGreaterThan(3);
    expect(page.requests, page.detail).toBeLessThanOrEqual(listBudget);
  });
});
