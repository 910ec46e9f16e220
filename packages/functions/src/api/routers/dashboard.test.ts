import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let manager: HttpClient;
let otherAdmin: HttpClient;
let member: HttpClient;

beforeAll(async () => {
  [admin, trainer, otherAdmin, member, manager] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
    signIn(api.url, "member@example.com"),
    signIn(api.url, "manager@example.com"),
  ]);
});

const calls = ["/api/stats", "/api/user-breakdown", "/api/cost-and-visit-breakdown"];

describe("dashboard scope and permissions", () => {
  it("a gym admin sees their own gym by default, and no other gym or the whole organisation", async () => {
    const ponsonby = api.seed.gyms.ponsonby.gym_id;
    const newmarket = api.seed.gyms.newmarket.gym_id;
    for (const path of calls) {
      const own = await manager.get(path);
      expect(own.status, path).toBe(200);
      expect(own.body.data).toMatchObject({ scope: "gym", gym_id: ponsonby });
      expect((await manager.get(`${path}?gym_id=${newmarket}`)).status, path).toBe(404);
      expect((await manager.get(`${path}?scope=organisation`)).status, path).toBe(403);
    }
  });

  it("a personal trainer is refused the figures (the business's money; docs/access-control.md)", async () => {
    for (const path of calls) expect((await trainer.get(path)).status, path).toBe(403);
  });

  it("an organisation admin sees any of its gyms and the whole organisation", async () => {
    const newmarket = api.seed.gyms.newmarket.gym_id;
    for (const path of calls) {
      expect((await admin.get(`${path}?gym_id=${newmarket}`)).body.data).toMatchObject({ gym_id: newmarket });
      expect((await admin.get(`${path}?scope=organisation`)).body.data).toMatchObject({
        scope: "organisation",
        gym_id: null,
      });
    }
  });

  it("another organisation's gym answers 404, and a member is refused", async () => {
    for (const path of calls) {
      expect((await otherAdmin.get(`${path}?gym_id=${api.seed.gyms.ponsonby.gym_id}`)).status, path).toBe(
        404,
      );
      expect((await member.get(path)).status, path).toBe(403);
    }
  });

  it("members by state lists active, cancelling, owing, paused and upcoming, each a count", async () => {
    const res = await admin.get("/api/user-breakdown?scope=organisation");
    expect(res.status).toBe(200);
    const states = res.body.data.by_state as { key: string; count: number }[];
    expect(states.map((b) => b.key)).toEqual(["active", "cancelling", "owing", "paused", "upcoming"]);
    expect(states.every((b) => Number.isInteger(b.count) && b.count >= 0)).toBe(true);
  });

  it("a new organisation's stats say nothing is counted yet; a backwards range is a 422 naming the field", async () => {
    const stats = await otherAdmin.get("/api/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.data).toMatchObject({ empty: true, active_members: { current: 0, previous: 0 } });
    const backwards = await admin.get("/api/cost-and-visit-breakdown?from=2026-05-02&to=2026-05-01");
    expect(backwards.status).toBe(422);
    expect(JSON.stringify(backwards.body)).toContain("from");
    expect((await admin.get("/api/cost-and-visit-breakdown?from=yesterday")).status).toBe(422);
  });
});
