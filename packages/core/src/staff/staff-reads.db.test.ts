/**
 * The staff list and deactivating an admin read the organisation's staff, not its members (issue
 * 39 item 4): the role partition holds every member's role too, so reading it whole grows with the
 * organisation. Counted here with 400 members beside the three seeded staff.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { countDynamoRequests, type RequestCount } from "../../../../tests/bench/measure";
import { signIn, useSeededApi } from "../../../../tests/support/api";
import type { HttpClient } from "../../../../tests/support/http";

const api = useSeededApi();
const MEMBERS = 400;
let counts: RequestCount;
let admin: HttpClient;

beforeAll(async () => {
  const { db } = await import("../db/service");
  const { ulid } = await import("ulid");
  const organisationId = api.seed.organisations.harbour.organisation_id;
  const gymId = api.seed.gyms.ponsonby.gym_id;
  const roles = Array.from({ length: MEMBERS }, () => ({
    organisation_id: organisationId,
    user_id: ulid(),
    member_gym_ids: [gymId],
  }));
  for (let i = 0; i < roles.length; i += 25)
    await db()
      .entities.role.put(roles.slice(i, i + 25))
      .go();
  admin = await signIn(api.url, "admin@example.com");
  counts = await countDynamoRequests();
  counts.counting = false;
}, 60_000);

async function itemsRead<T>(work: () => Promise<T>) {
  Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
  try {
    const result = await work();
    return { result, items: counts.items, detail: JSON.stringify(counts.byCommand) };
  } finally {
    counts.counting = false;
  }
}

describe("staff reads with many members", () => {
  it("lists the staff reading tens of items, not the members' roles", async () => {
    const harbour = api.seed.organisations.harbour.organisation_id;
    const { result, items, detail } = await itemsRead(() => admin.get(`/api/organisations/${harbour}/staff`));
    expect(result.status).toBe(200);
    expect((result.body.data as { email: string }[]).map((r) => r.email).sort()).toEqual([
      "admin@example.com",
      "manager@example.com",
      "trainer@example.com",
    ]);
    expect(items, detail).toBeLessThan(60);
  });

  it("deactivates an admin after reading the admins, not every role", async () => {
    const harbour = api.seed.organisations.harbour.organisation_id;
    const invited = await admin.post(`/api/organisations/${harbour}/staff`, {
      email: "second.admin@example.com",
      name: "sam second",
      role: "admin",
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const id = (invited.body.data as { id: string }).id;
    const { result, items, detail } = await itemsRead(() => admin.delete(`/api/staff/${id}`));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(items, detail).toBeLessThan(60);
    const after = await admin.get(`/api/organisations/${harbour}/staff`);
    expect((after.body.data as { email: string }[]).map((r) => r.email)).not.toContain(
      "second.admin@example.com",
    );
  });
});
