/**
 * Visit passes (issue 38; docs/offers.md "Visit passes"), over real HTTP with the business clock,
 * the billing run and the simulated providers driven in-process: a pay-in-full price carrying
 * visits is a pass; a member buys one, each door visit (core `recordVisit`, as the Kisi webhook
 * calls it) uses one a day at most, exactly once in parallel, and the door closes the day after the
 * last visit and at the pass's end, with the reason shown to staff.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { checkLedgerAfterEach } from "../../../../../tests/support/ledger";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import { adminOf, at, core, join as joinAs, memberOf, runJob } from "../../../../../tests/support/money-api";

const api = useTestApi();
checkLedgerAfterEach();
let world: MoneyWorld;
let admin: HttpClient;

const cardMember = () =>
  memberOf(world, api.url, { prefix: "pass", name: (n) => `Pass Member ${n}`, card: "4242424242424242" });
const passPrice = (visits: number, term: { term_amount: number; term_unit: "weeks" | "months" }) =>
  admin.post(`/api/offerings/${world.offering_id}/prices`, {
    amount: 15000,
    billing_frequency: "one_off",
    visits,
    ...term,
  });

let keys = 0;
/** A fresh Idempotency-Key header, as the staff site sends one per "Add visits" dialog. */
const once = (key = `add-visits-${++keys}-${Date.now()}`) => ({ "Idempotency-Key": key });

let events = 0;
/** A door visit as the Kisi webhook records it (access/visits.ts `recordVisit`). */
async function visit(userId: string, at: string, eventId = `pass-event-${++events}-${Date.now()}`) {
  const { recordVisit } = await import("@gym/core/access/visits");
  return recordVisit({
    organisation_id: world.organisation_id,
    event_id: eventId,
    gym_id: world.gym_id,
    user_id: userId,
    visited_at: new Date(`${at}+13:00`).toISOString(),
    successful: true,
  });
}

/** A member who bought a pass online by card, paid by the billing run. */
async function passMember(
  visits: number,
  term: { term_amount: number; term_unit: "weeks" | "months" } = { term_amount: 3, term_unit: "months" },
) {
  const price = await passPrice(visits, term);
  expect(price.status, JSON.stringify(price.body)).toBe(201);
  const member = await cardMember();
  const sub = await joinAs(world, member.client, price.body.data.id);
  await runJob("billing-run");
  const pass = async () => (await member.client.get("/api/me/active-subscription")).body.data.pass;
  const door = async () =>
    (await admin.get(`/api/members/${member.user.user_id}/access-control`)).body.data as {
      standing: boolean;
      reason: string;
    };
  return { member, sub, pass, door, userId: member.user.user_id };
}

beforeAll(async () => {
  world = await moneyWorld({ name: "Pass Gyms" });
  admin = await adminOf(world, api.url, "pass-admin@example.nz");
});

beforeEach(async () => {
  const { resetSimulatedProviders } = await core();
  resetSimulatedProviders();
});

describe("a pass price (staff)", () => {
  it("is a pay-in-full price with visits: kind pass; bad visits are a 422 on visits", async () => {
    const ten = await passPrice(10, { term_amount: 3, term_unit: "months" });
    expect(ten.status).toBe(201);
    expect(ten.body.data).toMatchObject({ kind: "pass", visits: 10, billing_frequency: "one_off" });
    const path = `/api/offerings/${world.offering_id}/prices`;
    const weekly = await admin.post(path, { amount: 2400, billing_frequency: "weekly", visits: 10 });
    expect(weekly.status).toBe(422);
    expect(weekly.body.errors.visits).toEqual(["Only a pay-in-full price can be a visit pass"]);
    for (const visits of [0, 1001, 2.5, "ten"]) {
      const bad = await admin.post(path, {
        amount: 15000,
        billing_frequency: "one_off",
        term_amount: 3,
        term_unit: "months",
        visits,
      });
      expect(bad.status, String(visits)).toBe(422);
      expect(bad.body.errors.visits).toEqual(["Enter 1 to 1000 visits"]);
    }
    const plain = await admin.post(path, {
      amount: 15000,
      billing_frequency: "one_off",
      term_amount: 3,
      term_unit: "months",
    });
    expect(plain.body.data).toMatchObject({ kind: "pif", visits: null });
    const recurring = await admin.post(path, { amount: 2400, billing_frequency: "weekly" });
    expect(recurring.body.data).toMatchObject({ kind: "recurring", visits: null });
  });

  it("another organisation's admin cannot see or change a pass price (404)", async () => {
    const ten = await passPrice(10, { term_amount: 3, term_unit: "months" });
    const other = await moneyWorld({ name: "Other Pass Gyms" });
    const outsider = await adminOf(other, api.url, "other-pass-admin@example.nz");
    const put = await outsider.put(`/api/prices/${ten.body.data.id}`, {
      amount: 100,
      billing_frequency: "one_off",
      term_amount: 1,
      term_unit: "months",
      visits: 1000,
    });
    expect(put.status).toBe(404);
  });
});

describe('a pass valid for days (valid_days; kind "pass")', () => {
  it("is made as the issue writes it, and its bad days are 422s on valid_days", async () => {
    const path = `/api/offerings/${world.offering_id}/prices`;
    const made = await admin.post(path, { kind: "pass", amount: 2000, visits: 1, valid_days: 7 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({
      kind: "pass",
      billing_frequency: "one_off",
      visits: 1,
      valid_days: 7,
      term_unit: null,
      formatted_pass: "1 visit, valid 7 days, $20.00 paid once",
    });
    for (const [body, errors] of [
      [
        { kind: "pass", amount: 2000, visits: 1, valid_days: 0 },
        { valid_days: ["Enter a pass valid for 1 to 3650 days"] },
      ],
      [{ kind: "pass", amount: 2000, visits: 1 }, { valid_days: ["Enter how many days the pass is valid"] }],
      [
        { amount: 2000, billing_frequency: "one_off", valid_days: 7, term_amount: 1, term_unit: "weeks" },
        { valid_days: ["Only a visit pass has days of validity: enter its visits"] },
      ],
      [
        {
          amount: 2000,
          billing_frequency: "one_off",
          visits: 1,
          valid_days: 7,
          term_amount: 1,
          term_unit: "weeks",
        },
        { valid_days: ["A pass is valid for its days or for a term, not both"] },
      ],
    ] as const) {
      const bad = await admin.post(path, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.errors).toEqual(errors);
    }
  });

  it("expires valid_days after its start: the door refuses with the reason, shown to staff and member", async () => {
    await at("2027-10-01");
    const price = await admin.post(`/api/offerings/${world.offering_id}/prices`, {
      kind: "pass",
      amount: 12000,
      visits: 10,
      valid_days: 90,
    });
    const member = await cardMember();
    const sub = await joinAs(world, member.client, price.body.data.id);
    await runJob("billing-run");
    const pass = async () => (await member.client.get("/api/me/active-subscription")).body.data.pass;
    expect(await pass()).toMatchObject({ visits: 10, left: 10, last_day: "2027-12-29", door: true });
    expect(sub).toMatchObject({ pif_ends_at: expect.any(String) });
    await at("2027-12-30");
    await runJob("door-access");
    const door = (await admin.get(`/api/members/${member.user.user_id}/access-control`)).body.data;
    expect(door).toMatchObject({ standing: false, reason: "The pass expired: its last day was 2027-12-29" });
    expect(await visit(member.user.user_id, "2027-12-30T10:00:00")).toBe("recorded");
    expect(await pass()).toMatchObject({
      used: 0,
      door: false,
      reason: "The pass expired: its last day was 2027-12-29",
    });
  });
});

describe("the door's count", () => {
  it("a member buys a 3-visit pass; one visit a day at most; the same event twice uses one", async () => {
    await at("2027-03-01");
    const { pass, userId } = await passMember(3);
    expect(await pass()).toMatchObject({
      visits: 3,
      used: 0,
      left: 3,
      door: true,
      reason: "3 of 3 visits left",
    });
    expect(await visit(userId, "2027-03-01T10:00:00", "pass-dup-1")).toBe("recorded");
    expect(await visit(userId, "2027-03-01T10:00:00", "pass-dup-1")).toBe("duplicate");
    expect(await pass()).toMatchObject({ used: 1, left: 2, last_visit_on: "2027-03-01" });
    expect(await visit(userId, "2027-03-01T18:00:00")).toBe("recorded"); // the same day
    expect(await pass()).toMatchObject({ used: 1, left: 2 });
  });

  it("two entries at the same instant use one visit; with one left, the door closes the next day", async () => {
    await at("2027-04-01");
    const { pass, door, userId } = await passMember(2);
    await visit(userId, "2027-04-01T10:00:00");
    await at("2027-04-02");
    const both = await Promise.all([
      visit(userId, "2027-04-02T07:00:00"),
      visit(userId, "2027-04-02T07:00:00"),
    ]);
    expect(both).toEqual(["recorded", "recorded"]);
    expect(await pass()).toMatchObject({ used: 2, left: 0, last_visit_on: "2027-04-02", door: true });
    expect(await door()).toMatchObject({ standing: true }); // the day of the last visit is paid for
    const { db } = await core();
    const { data } = await db()
      .entities.visit.query.byMember({ organisation_id: world.organisation_id, user_id: userId })
      .go();
    expect(data.filter((v) => v.pass_visit_used)).toHaveLength(2);
    await at("2027-04-03");
    await runJob("door-access");
    expect(await door()).toEqual(
      expect.objectContaining({ standing: false, reason: "No visits left on the pass" }),
    );
    expect(await visit(userId, "2027-04-03T07:00:00")).toBe("recorded"); // a late unlock uses none
    expect(await pass()).toMatchObject({ used: 2, left: 0, door: false });
  });

  it("entries of two days at once with one visit left: exactly one uses it", async () => {
    await at("2027-05-01");
    const { pass, userId } = await passMember(1, { term_amount: 1, term_unit: "weeks" });
    await Promise.all([visit(userId, "2027-05-01T10:00:00"), visit(userId, "2027-05-02T10:00:00")]);
    expect(await pass()).toMatchObject({ used: 1, left: 0 });
  });

  it("the door closes at the pass's end, with the reason", async () => {
    await at("2027-06-01");
    const { pass, door, userId } = await passMember(10, { term_amount: 1, term_unit: "weeks" });
    await visit(userId, "2027-06-01T10:00:00");
    expect(await door()).toMatchObject({ standing: true });
    await at("2027-06-08");
    await runJob("door-access");
    expect(await door()).toMatchObject({
      standing: false,
      reason: "The pass expired: its last day was 2027-06-07",
    });
    expect(await visit(userId, "2027-06-08T10:00:00")).toBe("recorded");
    expect(await pass()).toMatchObject({ used: 1 });
  });
});

describe("staff add visits (POST /api/subscriptions/{id}/pass-visits)", () => {
  it("with a reason: the pass has more, the door opens again, the activity log says why", async () => {
    await at("2027-07-01");
    const { pass, door, sub, userId } = await passMember(1);
    await visit(userId, "2027-07-01T10:00:00");
    await at("2027-07-02");
    await runJob("door-access");
    expect((await door()).standing).toBe(false);
    const path = `/api/subscriptions/${sub.id}/pass-visits`;
    const bad = await admin.post(path, { visits: 0, reason: " " }, once());
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      visits: ["Enter 1 to 100 visits"],
      reason: ["Say why the visits are added"],
    });
    const added = await admin.post(path, { visits: 2, reason: "The door failed on 1 July" }, once());
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data.pass).toMatchObject({ visits: 3, used: 1, left: 2, door: true });
    expect(await pass()).toMatchObject({ visits: 3, left: 2 });
    expect(await door()).toMatchObject({ standing: true });
    const activity = await admin.get(`/api/members/${userId}/activity`);
    expect(activity.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          summary: "Visits added to the pass",
          detail: "2 visits added: The door failed on 1 July",
        }),
      ]),
    );
    expect(await visit(userId, "2027-07-02T10:00:00")).toBe("recorded");
    expect(await pass()).toMatchObject({ used: 2, left: 1 });
  });

  it("another membership is 409 not_a_pass; another organisation's admin gets 404", async () => {
    await at("2027-08-01");
    const member = await cardMember();
    const plain = await joinAs(world, member.client, world.price_id);
    const notPass = await admin.post(
      `/api/subscriptions/${plain.id}/pass-visits`,
      { visits: 1, reason: "x" },
      once(),
    );
    expect(notPass.status).toBe(409);
    expect(JSON.stringify(notPass.body)).toContain("not_a_pass");
    const { sub } = await passMember(5);
    const other = await moneyWorld({ name: "Other Pass Gyms 2" });
    const outsider = await adminOf(other, api.url, "other-pass-admin2@example.nz");
    const theirs = await outsider.post(
      `/api/subscriptions/${sub.id}/pass-visits`,
      { visits: 1, reason: "x" },
      once(),
    );
    expect(theirs.status).toBe(404);
  });

  it("needs an Idempotency-Key: the same request twice at once, or sent again later, adds once", async () => {
    await at("2027-09-01");
    const { pass, sub, userId } = await passMember(5);
    const path = `/api/subscriptions/${sub.id}/pass-visits`;
    const body = { visits: 2, reason: "Double-clicked" };
    const missing = await admin.post(path, body);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      "idempotency-key": ["Send an Idempotency-Key header: 8 to 100 letters, digits, - or _"],
    });
    const short = await admin.post(path, body, once("abc"));
    expect(short.status).toBe(422);
    const key = once();
    const [first, second] = await Promise.all([admin.post(path, body, key), admin.post(path, body, key)]);
    expect([first.status, second.status], JSON.stringify([first.body, second.body])).toEqual([200, 200]);
    expect(first.body.data.pass).toMatchObject({ visits: 7, left: 7 });
    expect(second.body.data.pass).toMatchObject({ visits: 7, left: 7 });
    const later = await admin.post(path, body, key);
    expect(later.status).toBe(200);
    expect(later.body.data.pass).toMatchObject({ visits: 7 });
    expect(await pass()).toMatchObject({ visits: 7, left: 7 });
    const other = await admin.post(path, { visits: 3, reason: "Another" }, key);
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({
      "idempotency-key": ["This Idempotency-Key was sent before with another request"],
    });
    const next = await admin.post(path, { visits: 1, reason: "A second, new request" }, once());
    expect(next.body.data.pass).toMatchObject({ visits: 8 });
    const events = (await admin.get(`/api/members/${userId}/activity`)).body.data.filter(
      (e: { summary: string }) => e.summary === "Visits added to the pass",
    );
    expect(events).toHaveLength(2);
  });
});
