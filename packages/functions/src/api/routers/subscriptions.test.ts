import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";

const api = useSeededApi();
let member: HttpClient;
let outsider: HttpClient;
let prices: Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>["prices"];
let card: string;
let bank: string;
let today: string;

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  prices = (await seedOfferings(api.seed)).prices;
  const { addPaymentType } = await import("@gym/core/payment-type/service");
  const { businessToday } = await import("@gym/core/clock");
  today = await businessToday();
  const harbour = api.seed.organisations.harbour.organisation_id;
  const userId = api.seed.people.member.user_id;
  card = (
    await addPaymentType(harbour, userId, {
      type: "stripe_card",
      status: "active",
      card_type: "visa",
      last_four: "4242",
      exp_month: 1,
      exp_year: 2031,
      stripe_customer_id: "cus_1",
      stripe_payment_method_id: "pm_1",
      stripe_account: "acct_1",
    })
  ).payment_type_id;
  bank = (
    await addPaymentType(
      harbour,
      userId,
      { type: "bank_account", status: "active", account_number: "12-3140-•••1323-50", name: "Everyday" },
      { makeDefault: false },
    )
  ).payment_type_id;
  [member, outsider] = await Promise.all([
    signIn(api.url, "member@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

describe("GET /api/surcharge-total", () => {
  it("answers amount, surcharge and total for a price or an amount", async () => {
    const byCard = await member.get(
      `/api/surcharge-total?price_id=${prices.anytimeWeekly.price_id}&payment_type=stripe_card`,
    );
    expect(byCard.status).toBe(200);
    expect(byCard.body.data).toMatchObject({
      amount: 2_400,
      surcharge: 90,
      total: 2_490,
      formatted_total: "$24.90",
    });
    const byBank = await member.get(`/api/surcharge-total?amount=1000&payment_type_id=${bank}`);
    expect(byBank.body.data).toMatchObject({
      amount: 1_000,
      surcharge: 0,
      total: 1_000,
      payment_type: "bank_account",
    });
    const byCardId = await member.get(`/api/surcharge-total?amount=1000&payment_type_id=${card}`);
    expect(byCardId.body.data.surcharge).toBe(55);
  });

  it("answers 422 for missing or bad input and 404 for another organisation's price", async () => {
    const none = await member.get("/api/surcharge-total");
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors).sort()).toEqual(["payment_type", "price_id"]);
    const negative = await member.get("/api/surcharge-total?amount=-5&payment_type=stripe_card");
    expect(negative.status).toBe(422);
    expect(negative.body.errors.amount).toBeTruthy();
    expect(
      (
        await member.get(
          `/api/surcharge-total?price_id=${prices.strengthWeekly.price_id}&payment_type=stripe_card`,
        )
      ).status,
    ).toBe(404);
  });
});

describe("POST /api/me/payment-types/{payment_type_id}/switch", () => {
  it("makes another payment type the default", async () => {
    const res = await member.post(`/api/me/payment-types/${bank}/switch`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: bank, is_default: true, type: "bank_account" });
  });

  it("does not find unknown or other people's payment types", async () => {
    expect((await member.post("/api/me/payment-types/01HZZZZZZZZZZZZZZZZZZZZZZZ/switch")).status).toBe(404);
    expect((await outsider.post(`/api/me/payment-types/${bank}/switch`)).status).toBe(404);
  });
});

describe("POST /api/subscriptions and GET /api/me/active-subscription", () => {
  it("has no active subscription before confirming", async () => {
    const res = await member.get("/api/me/active-subscription");
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
  });

  it("answers 422 with field messages for bad input", async () => {
    const none = await member.post("/api/subscriptions", {});
    expect(none.status).toBe(422);
    expect(none.body.errors.price_id).toEqual(["Value is required"]);
    const bad = await member.post("/api/subscriptions", {
      price_id: prices.anytimeWeekly.price_id,
      start_date: "2026-02-30",
      billing_date: 5,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["billing_date", "start_date"]);
    const past = await member.post("/api/subscriptions", {
      price_id: prices.anytimeWeekly.price_id,
      start_date: "2020-01-01",
    });
    expect(past.status).toBe(422);
    expect(past.body.errors.start_date).toBeTruthy();
    const theirs = await member.post("/api/subscriptions", { price_id: prices.strengthWeekly.price_id });
    expect(theirs.status).toBe(404);
  });

  it("confirms a membership and answers it with its first payment (joining fee included)", async () => {
    const res = await member.post("/api/subscriptions", { price_id: prices.anytimeTerm.price_id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sub = res.body.data;
    expect(sub.price.id).toBe(prices.anytimeTerm.price_id);
    expect(sub.payment_method).toBe("bank_account");
    expect(sub.first_payment).toMatchObject({
      status: "upcoming",
      due_on: today,
      type: "bank_account",
      surcharge: 0,
    });
    expect(sub.first_payment.amount).toBe(2_000 + 4_900);
    expect(sub.first_payment.joining_fee).toBe(4_900);
    expect(sub.upcoming_payment.id).toBe(sub.first_payment.id);

    const again = await member.post("/api/subscriptions", { price_id: prices.anytimeWeekly.price_id });
    expect(again.status).toBe(409);

    const active = await member.get("/api/me/active-subscription");
    expect(active.body.data.id).toBe(sub.id);
    expect(active.body.data.upcoming_payment.id).toBe(sub.first_payment.id);
  });

  it("defaults each field to what registration stored", async () => {
    const { useRegistrationDefaults } = await import("@gym/core/subscription/confirm");
    const { addDays } = await import("@gym/core/billing/calendar");
    await addMember(api.seed, {
      name: "regina registered",
      email: "regina@example.net",
      gymId: api.seed.gyms.newmarket.gym_id,
      method: "card",
    });
    const start = addDays(today, 3);
    const billing = addDays(today, 5);
    const registration = useRegistrationDefaults(async () => ({
      price_id: prices.anytimeWeekly.price_id,
      gym_id: api.seed.gyms.newmarket.gym_id,
      start_date: start,
      billing_date: billing,
    }));
    // Registration's own reader back whatever happens: a later file in this worker confirms through it.
    const res = await signIn(api.url, "regina@example.net")
      .then((regina) => regina.post("/api/subscriptions", {}))
      .finally(() => useRegistrationDefaults(registration));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      start_date: start,
      billing_date: billing,
      payment_method: "stripe_card",
    });
    expect(res.body.data.gym.id).toBe(api.seed.gyms.newmarket.gym_id);
    // Two days of a weekly price before the first full period: pro-rata.
    expect(res.body.data.first_payment).toMatchObject({ is_pro_rata: true, due_on: start });
    // Marking the registration done is the `registration_confirmed` outbox event's (outbox.db.test.ts).
  });
});

describe("the member record after a subscription is made", () => {
  it("names it the latest, and dates the join from its start when that is earlier; a later start keeps the join date", async () => {
    const { createSubscription } = await import("@gym/core/subscription/service");
    const { db } = await import("@gym/core/db/service");
    const { startOfAucklandDay, addDays } = await import("@gym/core/billing/calendar");
    const organisationId = api.seed.organisations.harbour.organisation_id;
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const member = async (email: string) => {
      const { user } = await addMember(api.seed, { name: "mara member", email, gymId, method: "card" });
      const key = { organisation_id: organisationId, user_id: user.user_id };
      const before = (await db().entities.member.get(key).go()).data!;
      return { user, key, before };
    };

    // From today: today began before the member record was made.
    const early = await member("mara.today@example.net");
    const fromToday = await createSubscription({
      organisation_id: organisationId,
      user_id: early.user.user_id,
      gym_id: gymId,
      price_id: prices.anytimeWeekly.price_id,
      start_date: today,
    });
    const afterToday = (await db().entities.member.get(early.key).go()).data!;
    expect(afterToday.latest_subscription_id).toBe(fromToday.subscription.subscription_id);
    expect(afterToday.joined_at).toBe(startOfAucklandDay(today).toISOString());

    // From next week: the join date stays.
    const later = await member("mara.later@example.net");
    const fromLater = await createSubscription({
      organisation_id: organisationId,
      user_id: later.user.user_id,
      gym_id: gymId,
      price_id: prices.anytimeWeekly.price_id,
      start_date: addDays(today, 7),
    });
    const afterLater = (await db().entities.member.get(later.key).go()).data!;
    expect(afterLater.latest_subscription_id).toBe(fromLater.subscription.subscription_id);
    expect(afterLater.joined_at).toBe(later.before.joined_at);
  });
});
