import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type SeededPayments, seedPayments } from "../../../../../tests/support/payments";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let gymAdmin: HttpClient;
let otherGymAdmin: HttpClient;
let outsider: HttpClient;
let seeded: SeededPayments;
let organisationId: string;
let today: string;

/** The card member at Ponsonby (the gym linked to a Kisi place), made active (first payment behind them, no pause). */
async function activeMember() {
  const { db } = await import("@gym/core/db/service");
  const { memberSubscriptions } = await import("@gym/core/subscription/store");
  const userId = seeded.card.userId;
  const [sub] = await memberSubscriptions(organisationId, userId);
  await db()
    .entities.subscription.patch({ organisation_id: organisationId, subscription_id: sub.subscription_id })
    .remove(["upcoming_state", "pause_start_at", "pause_end_at", "paused_at"])
    .go();
  return { userId, subscriptionId: sub.subscription_id };
}

beforeAll(async () => {
  const { seedGyms } = await import("../../local/seed/gyms");
  const { seedOfferings } = await import("../../local/seed/offerings");
  const { createUser } = await import("@gym/core/user/service");
  const { putRole } = await import("@gym/core/user/roles");
  const { businessToday } = await import("@gym/core/clock");
  await seedGyms(api.seed);
  seeded = await seedPayments(api.seed, await seedOfferings(api.seed), 2);
  organisationId = api.seed.organisations.harbour.organisation_id;
  today = await businessToday();
  for (const [email, gym] of [
    ["ponsonby-admin@example.com", api.seed.gyms.ponsonby.gym_id],
    ["newmarket-admin@example.com", api.seed.gyms.newmarket.gym_id],
  ]) {
    const person = await createUser({
      email,
      name: "Gym Admin",
      password: "demo-password",
      email_verified: true,
    });
    await putRole({
      organisation_id: organisationId,
      user_id: person.user_id,
      gym_roles: [{ gym_id: gym, role: "admin" }],
    });
  }
  [admin, trainer, gymAdmin, otherGymAdmin, outsider] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "ponsonby-admin@example.com"),
    signIn(api.url, "newmarket-admin@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

describe("member door access", () => {
  it("re-sync gives an active member a credential at their gym's place, and Kisi reports it", async () => {
    const { userId } = await activeMember();
    const synced = await admin.post(`/api/users/${userId}/recreate-kisi-login`);
    expect(synced.status).toBe(200);
    expect(synced.body.data).toMatchObject({
      access_control_enabled: true,
      standing: true,
      reason: "Active",
    });
    expect(synced.body.data.entries).toEqual([
      expect.objectContaining({ gym_id: api.seed.gyms.ponsonby.gym_id, status: "granted", holder: "member" }),
    ]);
    const kisi = await admin.get(`/api/members/${userId}/access-control-credentials`);
    expect(kisi.status).toBe(200);
    expect(kisi.body.data).toEqual([
      expect.objectContaining({ gym_id: api.seed.gyms.ponsonby.gym_id, place_id: "41001", has_access: true }),
    ]);
  });

  it("a pause starting now takes the door away (the lifecycle operation calls the rule); the door-access job gives it back when the pause ends", async () => {
    const { userId, subscriptionId } = await activeMember();
    await admin.post(`/api/users/${userId}/recreate-kisi-login`);
    const { addDays } = await import("@gym/core/billing/calendar");
    const { advanceBusinessClock, setBusinessClock } = await import("@gym/core/clock");
    const { runJob } = await import("@gym/core/jobs/run");
    const paused = await admin.post(`/api/subscriptions/${subscriptionId}/pause`, {
      pause_start_at: today,
      pause_end_at: addDays(today as never, 7),
    });
    expect(paused.status).toBe(200);
    const after = await admin.get(`/api/members/${userId}/access-control`);
    expect(after.body.data).toMatchObject({ standing: false, reason: "Paused" });
    expect(after.body.data.entries[0].status).toBe("revoked");
    const kisi = async () =>
      (await admin.get(`/api/members/${userId}/access-control-credentials`)).body.data[0];
    expect((await kisi()).has_access).toBe(false);
    try {
      await advanceBusinessClock(8);
      await runJob("door-access");
      expect((await kisi()).has_access).toBe(true);
    } finally {
      await setBusinessClock(null);
    }
  });

  it("trainers read but may not re-sync (403); the gym's admin may; another gym's admin and another organisation get 404", async () => {
    const userId = seeded.card.userId;
    expect((await trainer.get(`/api/members/${userId}/access-control`)).status).toBe(200);
    expect((await trainer.post(`/api/users/${userId}/recreate-kisi-login`)).status).toBe(403);
    expect((await gymAdmin.post(`/api/users/${userId}/recreate-kisi-login`)).status).toBe(200);
    expect((await otherGymAdmin.get(`/api/members/${userId}/access-control`)).status).toBe(404);
    for (const path of ["access-control", "access-control-credentials"])
      expect((await outsider.get(`/api/members/${userId}/${path}`)).status).toBe(404);
    expect((await outsider.post(`/api/users/${userId}/recreate-kisi-login`)).status).toBe(404);
  });
});

describe("staff door access", () => {
  it("an organisation admin gives and removes a staff member's access at a gym", async () => {
    const trainerId = api.seed.people.trainer.user_id;
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const given = await admin.post(`/api/staff/${trainerId}/kisi-access`, { gym_id: gymId, enabled: true });
    expect(given.status).toBe(200);
    expect(given.body.data).toMatchObject({ holder: "staff", status: "granted", place_id: "41001" });
    // The staff answer (detail and list) says so.
    expect((await admin.get(`/api/staff/${trainerId}`)).body.data).toMatchObject({
      access_enabled: true,
      door_access_gym_ids: [gymId],
    });
    const list = await admin.get(
      `/api/organisations/${api.seed.organisations.harbour.organisation_id}/staff`,
    );
    expect(list.body.data.find((s: { id: string }) => s.id === trainerId).access_enabled).toBe(true);
    const removed = await admin.post(`/api/staff/${trainerId}/kisi-access`, {
      gym_id: gymId,
      enabled: false,
    });
    expect(removed.body.data).toMatchObject({ holder: "staff", status: "revoked", credential_id: null });
    expect((await admin.get(`/api/staff/${trainerId}`)).body.data).toMatchObject({
      access_enabled: false,
      door_access_gym_ids: [],
    });
  });

  it("deactivating a staff member takes their door access away", async () => {
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const invited = await admin.post(
      `/api/organisations/${api.seed.organisations.harbour.organisation_id}/staff`,
      {
        email: "door.staff@example.net",
        name: "dana door",
        role: "personal_trainer",
      },
    );
    expect(invited.status).toBe(201);
    const staffId = invited.body.data.id;
    const given = await admin.post(`/api/staff/${staffId}/kisi-access`, { gym_id: gymId, enabled: true });
    expect(given.body.data.status).toBe("granted");
    expect((await admin.delete(`/api/staff/${staffId}`)).status).toBe(200);
    const { doorAccessRecords } = await import("@gym/core/access/sync");
    const records = await doorAccessRecords(api.seed.organisations.harbour.organisation_id, staffId);
    expect(records.filter((r) => r.holder === "staff").map((r) => r.status)).toEqual(["revoked"]);
  });

  it("answers 422 with field messages, 403 to others than organisation admins, 404 to another organisation", async () => {
    const trainerId = api.seed.people.trainer.user_id;
    const bad = await admin.post(`/api/staff/${trainerId}/kisi-access`, { gym_id: "nope" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? bad.body.error?.fields ?? {})).toContain("enabled");
    const unknownGym = await admin.post(`/api/staff/${trainerId}/kisi-access`, {
      gym_id: "nope",
      enabled: true,
    });
    expect(unknownGym.status).toBe(422);
    const body = { gym_id: api.seed.gyms.ponsonby.gym_id, enabled: true };
    expect((await trainer.post(`/api/staff/${trainerId}/kisi-access`, body)).status).toBe(403);
    expect((await gymAdmin.post(`/api/staff/${trainerId}/kisi-access`, body)).status).toBe(403);
    expect((await outsider.post(`/api/staff/${trainerId}/kisi-access`, body)).status).toBe(404);
  });
});

type ActiveUsersPage = {
  active: { user_id: string; gym_id: string }[];
  mismatches: { user_id: string; gym_id: string; kind: string }[];
  next_cursor: string | null;
  per_page: number;
};

/** A door-access record saying we granted access (whatever the member's standing). */
async function grantDoorRecord(userId: string, gymId: string) {
  const { db } = await import("@gym/core/db/service");
  await db()
    .entities.doorAccess.put({
      organisation_id: organisationId,
      user_id: userId,
      holder: "member",
      gym_id: gymId,
      status: "granted",
      standing: true,
      reason: "Active",
      synced_at: new Date().toISOString(),
    })
    .go();
}

/** Every page of /api/active-users, followed by its cursor; `requests` is how many pages it took. */
async function allActiveUsers(client: HttpClient, perPage?: number) {
  const out = {
    active: [] as ActiveUsersPage["active"],
    mismatches: [] as ActiveUsersPage["mismatches"],
    pages: 0,
  };
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams();
    if (cursor) params.set("cursor", cursor);
    if (perPage) params.set("per_page", String(perPage));
    const res = await client.get(`/api/active-users?${params}`);
    expect(res.status).toBe(200);
    const page = res.body.data as ActiveUsersPage;
    out.active.push(...page.active);
    out.mismatches.push(...page.mismatches);
    out.pages += 1;
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

describe("GET /api/active-users", () => {
  it("lists members with standing and their reason, and both kinds of mismatch; a re-sync fixes one", async () => {
    const { db } = await import("@gym/core/db/service");
    const { userId } = await activeMember();
    await admin.post(`/api/users/${userId}/recreate-kisi-login`);
    const res = await allActiveUsers(admin);
    expect(res.active).toContainEqual(
      expect.objectContaining({ user_id: userId, reason: "Active", door_status: "granted" }),
    );
    expect(res.mismatches.filter((m: { user_id: string }) => m.user_id === userId)).toEqual([]);
    // Standing without a credential: the record says revoked (as if Kisi had been down).
    await db()
      .entities.doorAccess.patch({
        organisation_id: organisationId,
        user_id: userId,
        holder: "member",
        gym_id: api.seed.gyms.ponsonby.gym_id,
      })
      .set({ status: "revoked" })
      .go();
    const broken = await allActiveUsers(admin);
    expect(broken.mismatches).toContainEqual(
      expect.objectContaining({
        user_id: userId,
        kind: "standing_without_credential",
        door_status: "revoked",
      }),
    );
    // A credential without standing: the bank member has not started, but holds a grant.
    await grantDoorRecord(seeded.bank.userId, api.seed.gyms.newmarket.gym_id);
    const both = await allActiveUsers(admin);
    expect(both.mismatches).toContainEqual(
      expect.objectContaining({ user_id: seeded.bank.userId, kind: "credential_without_standing" }),
    );
    expect(both.active.some((a: { user_id: string }) => a.user_id === seeded.bank.userId)).toBe(false);
    // The fix action: re-sync each.
    for (const id of [userId, seeded.bank.userId])
      expect((await admin.post(`/api/users/${id}/recreate-kisi-login`)).status).toBe(200);
    const fixed = await allActiveUsers(admin);
    expect(
      fixed.mismatches.filter((m: { user_id: string }) => [userId, seeded.bank.userId].includes(m.user_id)),
    ).toEqual([]);
  });

  it("pages by member: one member a page lists everyone exactly once, the same as 50 a page, and a door record without a member is still seen", async () => {
    const { db } = await import("@gym/core/db/service");
    // Door access held by someone who is no member at all (sorts after every ULID).
    await grantDoorRecord("zz_no_member", api.seed.gyms.ponsonby.gym_id);
    const key = (r: { user_id: string; gym_id: string }) => `${r.user_id}|${r.gym_id}`;
    const whole = await allActiveUsers(admin, 50);
    const single = await allActiveUsers(admin, 1);
    expect(single.pages).toBeGreaterThan(2);
    expect(single.active.map(key).sort()).toEqual(whole.active.map(key).sort());
    expect(new Set(single.active.map(key)).size).toBe(single.active.length);
    expect(single.mismatches.map(key).sort()).toEqual(whole.mismatches.map(key).sort());
    for (const list of [whole, single])
      expect(list.mismatches).toContainEqual(
        expect.objectContaining({ user_id: "zz_no_member", kind: "credential_without_standing" }),
      );
    // A page's reads are bounded by its size, not the organisation's (session reads included).
    const { countDynamoRequests } = await import("../../../../../tests/bench/measure");
    const count = await countDynamoRequests();
    // The session is touched once every 5 minutes (auth/session.ts): a slow run would count that
    // write in the page below, so any touch due happens now.
    expect((await admin.get("/api/me")).status).toBe(200);
    const before = count.requests;
    const two = await admin.get("/api/active-users?per_page=2");
    expect(two.body.data.next_cursor).toEqual(expect.any(String));
    // per_page + 4 (members, door records, gyms, organisation) + 3 for the session and actor.
    expect(count.requests - before).toBeLessThanOrEqual(2 + 4 + 3);
    count.counting = false;
    const first = await admin.get("/api/active-users?per_page=1");
    expect(first.body.data.active.length + first.body.data.mismatches.length).toBeLessThanOrEqual(4);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const bad = await admin.get("/api/active-users?cursor=%25%25not-a-cursor");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("cursor");
    expect((await admin.get("/api/active-users?per_page=0")).status).toBe(422);
    expect((await admin.get("/api/active-users?per_page=51")).status).toBe(422);
    await db()
      .entities.doorAccess.delete({
        organisation_id: organisationId,
        user_id: "zz_no_member",
        holder: "member",
        gym_id: api.seed.gyms.ponsonby.gym_id,
      })
      .go();
  });

  it("is for organisation admins: trainers and gym admins get 403; another organisation sees only its own", async () => {
    expect((await trainer.get("/api/active-users")).status).toBe(403);
    expect((await gymAdmin.get("/api/active-users")).status).toBe(403);
    const theirs = await outsider.get("/api/active-users");
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain(seeded.card.userId);
  });
});
