import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";
import { type SeededPayments, seedPayments } from "../../../../../tests/support/payments";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let outsider: HttpClient;
let seeded: SeededPayments;
let organisationId: string;
let memberId: string;

const unlock = (body: Record<string, unknown>) =>
  api.client().post("/api/dev/kisi/unlock", { user_id: memberId, door_id: "51001", ...body });

async function visitsOf(client: HttpClient, query = "") {
  const res = await client.get(`/api/users/${memberId}/visits${query}`);
  expect(res.status).toBe(200);
  return res.body.data as { id: string; visited_at: string; door_name: string; successful: boolean }[];
}

beforeAll(async () => {
  const { seedGyms } = await import("../../local/seed/gyms");
  const { seedOfferings } = await import("../../local/seed/offerings");
  const { db } = await import("@gym/core/db/service");
  const { memberSubscriptions } = await import("@gym/core/subscription/store");
  const { syncDoorAccess } = await import("@gym/core/access/sync");
  await seedGyms(api.seed);
  seeded = await seedPayments(api.seed, await seedOfferings(api.seed), 2);
  organisationId = api.seed.organisations.harbour.organisation_id;
  memberId = seeded.card.userId;
  const [sub] = await memberSubscriptions(organisationId, memberId);
  await db()
    .entities.subscription.patch({ organisation_id: organisationId, subscription_id: sub.subscription_id })
    .remove(["upcoming_state"])
    .go();
  await syncDoorAccess(organisationId, memberId);
  [admin, trainer, outsider] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

describe("visits from Kisi unlocks", () => {
  it("an unlock on a door that tracks visits becomes one visit; the same event delivered twice is still one", async () => {
    const first = await unlock({ event_id: "900001", visited_at: "2026-11-20T19:00:00.000Z" });
    expect(first.body.data).toMatchObject({ status: 200, outcome: "accepted" });
    const again = await unlock({ event_id: "900001", visited_at: "2026-11-20T19:00:00.000Z" });
    expect(again.body.data).toMatchObject({ status: 200, outcome: "duplicate" });
    const visits = await visitsOf(admin);
    expect(visits.filter((v) => v.id === "900001")).toEqual([
      expect.objectContaining({
        visited_at: "2026-11-20T19:00:00.000Z",
        door_name: "Front door",
        successful: true,
      }),
    ]);
  });

  it("recordVisit itself writes once per event id (its transaction's condition), whatever calls it", async () => {
    const { recordVisit } = await import("@gym/core/access/visits");
    const input = {
      organisation_id: organisationId,
      event_id: "900002",
      gym_id: api.seed.gyms.ponsonby.gym_id,
      user_id: memberId,
      visited_at: "2026-11-19T19:00:00.000Z",
      successful: true,
    };
    expect(await recordVisit(input)).toBe("recorded");
    expect(await recordVisit({ ...input, visited_at: "2026-11-19T20:00:00.000Z" })).toBe("duplicate");
    expect((await visitsOf(admin)).filter((v) => v.id === "900002")).toHaveLength(1);
  });

  it("a visit counts once in the dashboard's rollups (gym day, offering, the member's month); a failed unlock and a duplicate do not", async () => {
    const { db } = await import("@gym/core/db/service");
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { sumShards } = await import("@gym/core/rollup/entity");
    const dayRow = async () =>
      sumShards(
        (
          await db()
            .entities.rollup.query.primary({ organisation_id: organisationId, scope: gymId })
            .between({ day: "2026-09-16" }, { day: "2026-09-16~" })
            .go({ pages: "all" })
        ).data,
      ).find((r) => r.day === "2026-09-16" && r.dim === "all")?.visits ?? 0;
    const monthRow = async () =>
      (
        await db()
          .entities.memberMonth.get({
            organisation_id: organisationId,
            gym_id: gymId,
            month: "2026-09",
            user_id: memberId,
          })
          .go()
      ).data?.visits ?? 0;
    const [day0, month0] = [await dayRow(), await monthRow()];
    // 07:00 on 16 September in Auckland is 19:00 on the 15th in UTC: the visit counts on the 16th.
    await unlock({ event_id: "900090", visited_at: "2026-09-15T19:00:00.000Z" });
    await unlock({ event_id: "900090", visited_at: "2026-09-15T19:00:00.000Z" });
    await unlock({ event_id: "900091", visited_at: "2026-09-15T19:05:00.000Z", successful: false });
    expect(await dayRow()).toBe(day0 + 1);
    expect(await monthRow()).toBe(month0 + 1);
  });

  it("events arriving out of order are listed by when the visit happened; a date range picks Auckland days", async () => {
    await unlock({ event_id: "900011", visited_at: "2026-11-25T20:00:00.000Z" });
    await unlock({ event_id: "900010", visited_at: "2026-11-24T20:00:00.000Z", successful: false });
    const ids = (await visitsOf(admin)).map((v) => v.id);
    expect(ids.indexOf("900011")).toBeLessThan(ids.indexOf("900010"));
    // 24 Nov 20:00 UTC is 25 November in Auckland (NZDT).
    const day = await visitsOf(admin, "?from=2026-11-25&to=2026-11-25");
    expect(day.map((v) => v.id)).toEqual(["900010"]);
    expect(day[0].successful).toBe(false);
  });

  it("an unlock on a door that does not track visits makes no visit; a person never given access cannot be simulated", async () => {
    await api
      .client()
      .post("/api/dev/kisi/unlock", { user_id: memberId, door_id: "51002", event_id: "900020" });
    expect((await visitsOf(admin)).some((v) => v.id === "900020")).toBe(false);
    const stranger = await api
      .client()
      .post("/api/dev/kisi/unlock", { user_id: "01HNOBODY", door_id: "51001" });
    expect(stranger.status).toBe(422);
  });

  it("a person whose door access was taken away is refused: an unsuccessful unlock", async () => {
    const { db } = await import("@gym/core/db/service");
    const { doorAccessRecords, syncDoorAccess } = await import("@gym/core/access/sync");
    const records = await doorAccessRecords(organisationId, memberId);
    const revoke = (status: "granted" | "revoked") =>
      Promise.all(
        records.map((r) =>
          db()
            .entities.doorAccess.patch({
              organisation_id: r.organisation_id,
              user_id: r.user_id,
              holder: r.holder,
              gym_id: r.gym_id,
            })
            .set({ status })
            .go(),
        ),
      );
    await revoke("revoked");
    await unlock({ event_id: "900030", visited_at: "2026-11-26T20:00:00.000Z" });
    await revoke("granted");
    await syncDoorAccess(organisationId, memberId);
    const refused = (await visitsOf(admin)).find((v) => v.id === "900030");
    expect(refused).toMatchObject({ successful: false });
  });
});

describe("POST /api/visits/export", () => {
  it("writes the filtered visits as CSV (every page) and redirects to the file; admins only", async () => {
    const { call, file } = await admin.exportCsv("/api/visits/export", { user_id: memberId });
    expect(call.status).toBe(303);
    expect(call.headers.get("location")).toMatch(/^\/exports\/.+\/visits-\d{4}-\d{2}-\d{2}\.csv\?/);
    const lines = file!.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines[0]).toBe("Visit ID,Visited at,Member,Member ID,Gym,Door,Successful,Pass visit");
    const listed = await visitsOf(admin);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(listed.map((v) => v.id));
    // 07:00 on 16 September in Auckland, en-NZ.
    expect(lines.find((l) => l.startsWith("900090,"))).toMatch(/^900090,16\/09\/2026 7:00 am,/);
    expect(lines.find((l) => l.startsWith("900091,"))).toMatch(/,Front door,no,no$/);
    expect((await trainer.post("/api/visits/export", {})).status).toBe(403);
    expect((await outsider.post("/api/visits/export", { user_id: memberId })).status).toBe(404);
    const bad = await admin.post("/api/visits/export", { from: "2026-11-20", to: "2026-11-01" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["to"]);
  });
});

describe("GET /api/visits", () => {
  it("pages by cursor and filters by gym and member", async () => {
    const first = await admin.get(`/api/visits?user_id=${memberId}&per_page=1`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    const cursor = first.body.meta.next_cursor;
    expect(cursor).toBeTruthy();
    const second = await admin.get(
      `/api/visits?user_id=${memberId}&per_page=1&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    const ponsonby = await admin.get(`/api/visits?gym_id=${api.seed.gyms.ponsonby.gym_id}`);
    expect(ponsonby.body.data.length).toBeGreaterThanOrEqual(4);
    const newmarket = await admin.get(`/api/visits?gym_id=${api.seed.gyms.newmarket.gym_id}`);
    expect(newmarket.body.data).toEqual([]);
    expect((await admin.get("/api/visits")).body.data.length).toBeGreaterThanOrEqual(4);
  });

  it("trainers see their gym's visits, not another gym's (404); another organisation gets 404 for the member and sees none", async () => {
    expect((await trainer.get("/api/visits")).body.data.length).toBeGreaterThanOrEqual(4);
    expect((await trainer.get(`/api/visits?gym_id=${api.seed.gyms.newmarket.gym_id}`)).status).toBe(404);
    expect((await outsider.get(`/api/users/${memberId}/visits`)).status).toBe(404);
    expect((await outsider.get(`/api/visits?user_id=${memberId}`)).status).toBe(404);
    expect((await outsider.get("/api/visits")).body.data).toEqual([]);
  });

  it("answers 422 with field messages for bad dates, a reversed range and a bad cursor", async () => {
    const bad = await admin.get("/api/visits?from=25-11-2026");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("Enter a date as YYYY-MM-DD");
    const reversed = await admin.get("/api/visits?from=2026-11-25&to=2026-11-01");
    expect(reversed.status).toBe(422);
    expect(JSON.stringify(reversed.body)).toContain("The end date must not be before the start date");
    expect((await admin.get("/api/visits?cursor=not-a-cursor")).status).toBe(422);
  });
});

describe("the member page's counts", () => {
  it("visits_count counts the member's visits; access_control_credentials lists their granted credential", async () => {
    const all = await visitsOf(admin, "?per_page=100");
    const res = await admin.get(`/api/members/${memberId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.visits_count).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(res.body.data.access_control_credentials).toEqual([{ id: expect.any(String), status: "granted" }]);
  });
});

describe("member charts", () => {
  it("weekly visits count successful visits per Auckland week; cost per visit is the week's price over them", async () => {
    const { recordVisit } = await import("@gym/core/access/visits");
    const { weekStart } = await import("@gym/core/access/charts");
    const { addDays, aucklandDate, startOfAucklandDay } = await import("@gym/core/billing/calendar");
    const { businessNow } = await import("@gym/core/clock");
    const userId = seeded.bank.userId;
    const monday = weekStart(aucklandDate(await businessNow()));
    const lastMonday = addDays(monday, -7);
    const at = (day: string, hours: number) =>
      new Date(startOfAucklandDay(day as never).getTime() + hours * 3600_000).toISOString();
    const visits: [string, string, boolean][] = [
      ["chart-1", at(monday, 10), true],
      ["chart-2", at(addDays(monday, 1), 18), true],
      ["chart-3", at(addDays(monday, 2), 7), false],
      ["chart-4", at(lastMonday, 23.5), true],
    ];
    for (const [event_id, visited_at, successful] of visits)
      await recordVisit({
        organisation_id: organisationId,
        event_id,
        gym_id: api.seed.gyms.newmarket.gym_id,
        user_id: userId,
        visited_at,
        successful,
      });
    const weekly = await admin.get(`/api/members/${userId}/weekly-visits?weeks=2`);
    expect(weekly.status).toBe(200);
    expect(weekly.body.data).toEqual([
      { week_start: lastMonday, visits: 1 },
      { week_start: monday, visits: 2 },
    ]);
    const periods = await admin.get(`/api/members/${userId}/subscription-periods`);
    expect(periods.body.data).toHaveLength(1);
    const period = periods.body.data[0];
    expect(period).toMatchObject({ billing_frequency: "weekly", end_date: null });
    expect(period.weekly_cost).toBe(period.amount);
    const cost = await admin.get(`/api/members/${userId}/weekly-cost-per-visit?weeks=2`);
    const inside = (week: string) =>
      period.start_date <= addDays(week as never, 6) ? period.weekly_cost : 0;
    expect(cost.body.data).toEqual([
      { week_start: lastMonday, visits: 1, cost: inside(lastMonday), cost_per_visit: inside(lastMonday) },
      { week_start: monday, visits: 2, cost: inside(monday), cost_per_visit: Math.round(inside(monday) / 2) },
    ]);
  });

  it("answers 422 for a bad number of weeks; 404 outside reach", async () => {
    const userId = seeded.bank.userId;
    const bad = await admin.get(`/api/members/${userId}/weekly-visits?weeks=0`);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("Choose from 1 to 52 weeks");
    for (const path of ["weekly-visits", "subscription-periods", "weekly-cost-per-visit"]) {
      expect((await outsider.get(`/api/members/${userId}/${path}`)).status).toBe(404);
      // The trainer works at Ponsonby; this member is at Newmarket.
      expect((await trainer.get(`/api/members/${userId}/${path}`)).status).toBe(404);
    }
  });
});

describe("a door event is what Kisi says happened, not what its body claims", () => {
  it("the visit's success, door and person come from Kisi's own record of the event", async () => {
    const { recordSimulatedKisiEvent } = await import("@gym/core/simulators/kisi");
    const { doorAccessRecords } = await import("@gym/core/access/sync");
    const rotated = await admin.post(
      `/api/organisations/${organisationId}/access-control/webhook-secret`,
      {},
    );
    expect(rotated.status).toBe(200);
    const secretPath = new URL(rotated.body.data.webhook_url).pathname;
    const kisiUserId = (await doorAccessRecords(organisationId, memberId)).find((r) => r.kisi_user_id)
      ?.kisi_user_id as string;
    const kisi = new HttpClient(api.url, { xhr: false });
    const send = (id: string, claims: Record<string, unknown>) =>
      kisi.request(
        "POST",
        secretPath,
        JSON.stringify({
          id,
          type: "lock.unlock",
          action: "unlock",
          object_type: "Lock",
          place_id: "41001",
          ...claims,
        }),
      );
    // Kisi recorded a failed unlock; the body claims success.
    recordSimulatedKisiEvent({
      id: "900301",
      action: "unlock",
      object_type: "Lock",
      place_id: "41001",
      lock_id: "51001",
      actor_id: kisiUserId,
      success: false,
      created_at: "2026-11-10T19:00:00.000Z",
    });
    expect((await send("900301", { object_id: "51001", actor_id: kisiUserId, success: true })).status).toBe(
      200,
    );
    // Kisi recorded a successful unlock; the body claims failure.
    recordSimulatedKisiEvent({
      id: "900302",
      action: "unlock",
      object_type: "Lock",
      place_id: "41001",
      lock_id: "51001",
      actor_id: kisiUserId,
      success: true,
      created_at: "2026-11-10T20:00:00.000Z",
    });
    expect((await send("900302", { object_id: "51001", actor_id: kisiUserId, success: false })).status).toBe(
      200,
    );
    // Kisi names no actor; the body names our member: no visit for them.
    recordSimulatedKisiEvent({
      id: "900303",
      action: "unlock",
      object_type: "Lock",
      place_id: "41001",
      lock_id: "51001",
      actor_id: null,
      success: true,
      created_at: "2026-11-10T21:00:00.000Z",
    });
    expect((await send("900303", { object_id: "51001", actor_id: kisiUserId, success: true })).status).toBe(
      200,
    );
    const visits = await visitsOf(admin, "?from=2026-11-11&to=2026-11-11");
    const byId = new Map(visits.map((v) => [v.id, v.successful]));
    expect(byId.get("900301")).toBe(false);
    expect(byId.get("900302")).toBe(true);
    expect(byId.has("900303")).toBe(false);
  });
});
