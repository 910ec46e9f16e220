/**
 * Issue 22, defect 8: confirming twice at once (a double tap on Confirm, a phone retrying on a
 * slow network) must make one membership and one first payment. Every action that creates
 * something that later charges is fired N times at once over real HTTP: exactly one succeeds, the
 * others answer 409 with the record that exists (docs/billing.md "One live membership per
 * member"). The same request repeated after success answers the same 409.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { Answer, HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";

const api = useSeededApi();
type Seeded = Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>;
let offerings: Seeded;
let admin: HttpClient;
let organisationId: string;
let ponsonby: string;
let members = 0;

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  offerings = await seedOfferings(api.seed);
  organisationId = api.seed.organisations.harbour.organisation_id;
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  admin = await signIn(api.url, "admin@example.com");
});

/** A member with a card and no membership, signed in on the join site. */
async function cardMember(method: "card" | "bank" = "card") {
  members += 1;
  const email = `racer${members}@example.net`;
  const { user, paymentType } = await addMember(api.seed, {
    name: `racer ${members}`,
    email,
    gymId: ponsonby,
    method,
  });
  return {
    userId: user.user_id,
    paymentTypeId: paymentType.payment_type_id,
    client: await signIn(api.url, email),
  };
}

/** What the member has, read from the table: subscriptions, live ones, and payments. */
async function holdings(userId: string) {
  const { memberSubscriptions, isLive } = await import("@gym/core/subscription/store");
  const { listMemberPayments } = await import("@gym/core/payment/store");
  const { businessNow } = await import("@gym/core/clock");
  const now = await businessNow();
  const subs = await memberSubscriptions(organisationId, userId);
  const { items } = await listMemberPayments(organisationId, userId, { limit: 100 });
  return { subs, live: subs.filter((s) => isLive(s, now)), payments: items };
}

/** Exactly one answered `created`; every other answered 409 naming the winner. */
function exactlyOneWins(answers: Answer[], created: number) {
  const winners = answers.filter((a) => a.status === created);
  expect(
    answers.map((a) => a.status),
    JSON.stringify(answers.map((a) => a.body)),
  ).toEqual(expect.arrayContaining([created]));
  expect(winners).toHaveLength(1);
  const winner = winners[0].body.data;
  for (const loser of answers.filter((a) => a !== winners[0])) {
    expect(loser.status, JSON.stringify(loser.body)).toBe(409);
    expect(loser.body.error).toBe("subscription_exists");
    expect(loser.body.data.id).toBe(winner.id);
  }
  return winner;
}

const N = 3;

describe("POST /api/subscriptions sent several times at once", () => {
  it("makes one membership and one first payment; the others answer 409 with it", async () => {
    const { client, userId } = await cardMember();
    const body = { price_id: offerings.prices.anytimeWeekly.price_id, gym_id: ponsonby };
    const answers = await Promise.all(
      Array.from({ length: N }, () => client.post("/api/subscriptions", body)),
    );
    const winner = exactlyOneWins(answers, 201);
    expect(winner.first_payment).toMatchObject({ amount: 2_400 });

    const { subs, payments } = await holdings(userId);
    expect(subs.map((s) => s.subscription_id)).toEqual([winner.id]);
    expect(payments).toHaveLength(1);
    expect(payments[0].subscription_id).toBe(winner.id);

    const active = await client.get("/api/me/active-subscription");
    expect(active.body.data.id).toBe(winner.id);
  });

  it("the same request repeated after it succeeded (a phone retry) answers 409 with the membership", async () => {
    const { client, userId } = await cardMember();
    const body = { price_id: offerings.prices.anytimeWeekly.price_id, gym_id: ponsonby };
    const first = await client.post("/api/subscriptions", body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await client.post("/api/subscriptions", body);
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ error: "subscription_exists", data: { id: first.body.data.id } });
    expect(retry.body.data.first_payment.id).toBe(first.body.data.first_payment.id);
    const { subs, payments } = await holdings(userId);
    expect(subs).toHaveLength(1);
    expect(payments).toHaveLength(1);
  });

  it("a past member rejoining confirms twice at once: one new membership", async () => {
    const { client, userId } = await cardMember();
    const body = { price_id: offerings.prices.anytimeWeekly.price_id, gym_id: ponsonby };
    const first = await client.post("/api/subscriptions", body);
    expect(first.status).toBe(201);
    const cancelled = await admin.post(`/api/subscriptions/${first.body.data.id}/cancel`, {
      immediate: true,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    const again = { price_id: offerings.prices.anytimeFortnightly.price_id, gym_id: ponsonby };
    const answers = await Promise.all(
      Array.from({ length: N }, () => client.post("/api/subscriptions", again)),
    );
    const winner = exactlyOneWins(answers, 201);
    expect(winner.id).not.toBe(first.body.data.id);
    const { live, payments } = await holdings(userId);
    expect(live.map((s) => s.subscription_id)).toEqual([winner.id]);
    expect(payments.filter((p) => p.subscription_id === winner.id)).toHaveLength(1);
  });
});

describe("staff adding a membership at the same time", () => {
  it("POST /api/members/{id}/pif several times at once: one pay-in-full membership, one payment", async () => {
    const { userId } = await cardMember();
    const body = { price_id: offerings.prices.summerPif.price_id, gym_id: ponsonby, payment_method: "cash" };
    const answers = await Promise.all(
      Array.from({ length: N }, () => admin.post(`/api/members/${userId}/pif`, body)),
    );
    const winner = exactlyOneWins(answers, 201);
    const { subs, payments } = await holdings(userId);
    expect(subs.map((s) => s.subscription_id)).toEqual([winner.id]);
    expect(payments).toHaveLength(1);
    // Repeated after success: the same 409 with the membership.
    const again = await admin.post(`/api/members/${userId}/pif`, body);
    expect(again.status).toBe(409);
  });

  it("the member confirming while staff add pay in full: one of them wins", async () => {
    const { client, userId } = await cardMember();
    const answers = await Promise.all([
      client.post("/api/subscriptions", {
        price_id: offerings.prices.anytimeWeekly.price_id,
        gym_id: ponsonby,
      }),
      admin.post(`/api/members/${userId}/pif`, {
        price_id: offerings.prices.summerPif.price_id,
        gym_id: ponsonby,
        payment_method: "eftpos",
      }),
      client.post("/api/subscriptions", {
        price_id: offerings.prices.anytimeWeekly.price_id,
        gym_id: ponsonby,
      }),
    ]);
    const created = answers.filter((a) => a.status === 201);
    expect(created, JSON.stringify(answers.map((a) => [a.status, a.body]))).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      // Staff's PIF is refused by its own rule (an upcoming or live membership) or by the claim.
      if (a.body.error === "subscription_exists") expect(a.body.data.id).toBe(created[0].body.data.id);
    }
    const { subs, payments } = await holdings(userId);
    expect(subs).toHaveLength(1);
    expect(payments).toHaveLength(1);
  });
});

describe("the other calls that lead to a charge, sent several times at once", () => {
  it("start now: one 200, the others 409; one upcoming payment, due today", async () => {
    const { userId } = await cardMember();
    const { createSubscription } = await import("@gym/core/subscription/service");
    const { businessToday } = await import("@gym/core/clock");
    const { addDays } = await import("@gym/core/billing/calendar");
    const today = await businessToday();
    const { subscription } = await createSubscription({
      organisation_id: organisationId,
      user_id: userId,
      gym_id: ponsonby,
      price_id: offerings.prices.anytimeWeekly.price_id,
      start_date: addDays(today, 5),
    });
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        admin.post(`/api/subscriptions/${subscription.subscription_id}/start-now`),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const { payments } = await holdings(userId);
    const upcoming = payments.filter((p) => p.status === "upcoming");
    expect(upcoming).toHaveLength(1);
    expect(upcoming[0].due_on).toBe(today);
  });

  it("switching the default payment type: exactly one default afterwards", async () => {
    const { userId, client } = await cardMember();
    const { addPaymentType } = await import("@gym/core/payment-type/service");
    const bank = await addPaymentType(
      organisationId,
      userId,
      { type: "bank_account", status: "active", account_number: "12-3140-•••1323-50", name: "Everyday" },
      { makeDefault: false },
    );
    const other = await addPaymentType(
      organisationId,
      userId,
      { type: "bank_account", status: "active", account_number: "12-3140-•••9999-00", name: "Savings" },
      { makeDefault: false },
    );
    const answers = await Promise.all([
      client.post(`/api/me/payment-types/${bank.payment_type_id}/switch`),
      client.post(`/api/me/payment-types/${other.payment_type_id}/switch`),
      client.post(`/api/me/payment-types/${bank.payment_type_id}/switch`),
    ]);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    const { listPaymentTypeRecords } = await import("@gym/core/payment-type/service");
    const types = await listPaymentTypeRecords(organisationId, userId);
    expect(types.filter((t) => t.is_default)).toHaveLength(1);
  });
});
