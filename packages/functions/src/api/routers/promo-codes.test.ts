/**
 * Promo codes (issue 38; docs/offers.md "Promo codes"), each rule over real HTTP: organisation
 * admins make and change codes; the join site checks one as typed (a discount and an all-in total,
 * or the reason it cannot be used); a join uses it (discounted first payment, the schedule's later
 * charges, a receipt line); archiving never changes what members who joined pay; a use limit holds
 * under parallel joins.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";

const api = useSeededApi();
type Seeded = Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>;
let offerings: Seeded;
let admin: HttpClient;
let manager: HttpClient;
let outsider: HttpClient;
let organisationId: string;
let ponsonby: string;
let newmarket: string;
let members = 0;
let codes = 0;

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  offerings = await seedOfferings(api.seed);
  organisationId = api.seed.organisations.harbour.organisation_id;
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  newmarket = api.seed.gyms.newmarket.gym_id;
  [admin, manager, outsider] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "manager@example.com"),
    signIn(api.url, "owner@example.org"),
  ]);
});

/** A member with a card and no membership, signed in on the join site. */
async function joiner(gymId = ponsonby) {
  members += 1;
  const email = `promo${members}@example.net`;
  const { user } = await addMember(api.seed, { name: `promo ${members}`, email, gymId, method: "card" });
  return { userId: user.user_id, client: await signIn(api.url, email) };
}

/** A code made by the organisation admin (a fresh name each time). */
async function makeCode(terms: Record<string, unknown> = {}) {
  codes += 1;
  const res = await admin.post("/api/promo-codes", {
    code: `Code${codes}x`,
    kind: "percent",
    percent_basis_points: 5_000,
    periods: 1,
    ...terms,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; code: string };
}

async function storedSubscription(id: string) {
  const { findSubscription } = await import("@gym/core/subscription/store");
  const sub = await findSubscription(organisationId, id);
  if (!sub) throw new Error("no subscription");
  return sub;
}

/** The charges of the schedule after the first, as the billing run plans them. */
async function laterCharges(id: string, count: number) {
  const { chargeAfterOf } = await import("@gym/core/subscription/schedule");
  const sub = await storedSubscription(id);
  const charges = [];
  let previous = chargeAfterOf(sub, null);
  for (let i = 0; i < count && previous; i++) {
    previous = chargeAfterOf(sub, { index: previous.index, period_end: previous.period_end });
    if (previous) charges.push(previous);
  }
  return charges;
}

describe("making promo codes (organisation admins)", () => {
  it("makes, lists and changes a code; the code is upper case and its summary reads", async () => {
    const made = await admin.post("/api/promo-codes", {
      code: "blackfriday",
      kind: "percent",
      percent_basis_points: 5_000,
      periods: 1,
      offering_ids: [offerings.offerings.anytime.offering_id],
      starts_on: "2020-01-01",
      ends_on: "2099-12-31",
      use_limit: 100,
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      code: "BLACKFRIDAY",
      kind: "percent",
      percent_basis_points: 5_000,
      amount_off: null,
      formatted_off: "50%",
      summary: "50% off the first period",
      uses: 0,
      uses_left: 100,
      status: "active",
      gym: null,
    });
    const list = await admin.get("/api/promo-codes");
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { code: string }) => c.code)).toContain("BLACKFRIDAY");

    const changed = await admin.put(`/api/promo-codes/${made.body.data.id}`, {
      kind: "fixed",
      amount_off: 1_000,
      periods: null,
      gym_id: ponsonby,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      code: "BLACKFRIDAY",
      summary: "$10.00 off every period",
      gym: { id: ponsonby },
      use_limit: null,
      offering_ids: [],
    });
  });

  it("refuses bad terms with a message on each field, and a name already taken", async () => {
    const bad = await admin.post("/api/promo-codes", {
      code: "a!",
      kind: "percent",
      periods: 0,
      starts_on: "2026-12-10",
      ends_on: "2026-12-01",
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      "code",
      "ends_on",
      "percent_basis_points",
      "periods",
    ]);
    const fixedWithout = await admin.post("/api/promo-codes", { code: "FIXED1", kind: "fixed" });
    expect(fixedWithout.status).toBe(422);
    expect(fixedWithout.body.errors.amount_off).toBeTruthy();
    await makeCode({ code: "TAKEN" });
    const again = await admin.post("/api/promo-codes", { code: "taken", kind: "fixed", amount_off: 500 });
    expect(again.status).toBe(422);
    expect(again.body.errors.code[0]).toMatch(/taken/);
  });

  it("is for organisation admins only; another organisation's ids are not found", async () => {
    expect((await manager.get("/api/promo-codes")).status).toBe(403);
    expect(
      (await manager.post("/api/promo-codes", { code: "MINE", kind: "fixed", amount_off: 500 })).status,
    ).toBe(403);
    const theirs = await outsider.post("/api/promo-codes", {
      code: "THEIRS",
      kind: "fixed",
      amount_off: 500,
      offering_ids: [offerings.offerings.anytime.offering_id],
    });
    expect(theirs.status).toBe(404);
    const mine = await makeCode();
    expect((await outsider.put(`/api/promo-codes/${mine.id}`, { kind: "fixed", amount_off: 1 })).status).toBe(
      404,
    );
    expect((await outsider.delete(`/api/promo-codes/${mine.id}/archive`)).status).toBe(404);
    expect(
      (await outsider.get("/api/promo-codes")).body.data.some((c: { id: string }) => c.id === mine.id),
    ).toBe(false);
  });
});

describe("GET /api/promo-codes/check (the join site, as the code is typed)", () => {
  it("answers the discount on one period and the new all-in total, card surcharge included", async () => {
    const code = await makeCode();
    const { client } = await joiner();
    const res = await client.get(
      `/api/promo-codes/check?code=${code.code.toLowerCase()}&price_id=${offerings.prices.anytimeWeekly.price_id}`,
    );
    expect(res.status).toBe(200);
    const surcharge = (await client.get("/api/surcharge-total?amount=1200&payment_type=stripe_card")).body
      .data.surcharge;
    expect(res.body.data).toMatchObject({
      code: code.code,
      amount: 2_400,
      discount: 1_200,
      surcharge,
      total: 1_200 + surcharge,
      payment_type: "stripe_card",
      summary: "50% off the first period",
    });
    expect(res.body.data.first_payment).toMatchObject({
      amount: 1_200,
      discount: 1_200,
      total: 1_200 + surcharge,
    });
  });

  it("answers the first payment as the join will make it: the joining fee never discounted", async () => {
    const code = await makeCode();
    const { client } = await joiner();
    const term = offerings.prices.anytimeTerm.price_id; // $20.00 weekly, $49.00 joining fee
    const withFee = await client.get(
      `/api/promo-codes/check?code=${code.code}&price_id=${term}&payment_type=bank_account`,
    );
    expect(withFee.status).toBe(200);
    expect(withFee.body.data.first_payment).toMatchObject({
      amount: 5_900,
      discount: 1_000,
      surcharge: 0,
      total: 5_900,
    });
    // Joined that way, the first payment is exactly what the check said.
    const joined = await client.post("/api/subscriptions", { price_id: term, promo_code: code.code });
    expect(joined.status).toBe(201);
    expect(joined.body.data.first_payment).toMatchObject({ amount: 5_900, discount: 1_000 });
  });

  it("answers 422 on `code` with the reason a person reads", async () => {
    const { client } = await joiner();
    const weekly = offerings.prices.anytimeWeekly.price_id;
    const reason = async (code: string, priceId = weekly) => {
      const res = await client.get(`/api/promo-codes/check?code=${code}&price_id=${priceId}`);
      expect(res.status).toBe(422);
      return res.body.errors.code[0];
    };
    expect(await reason("NOSUCHCODE")).toBe("We don't know this code. Check how it is spelt.");
    const expired = await makeCode({ ends_on: "2020-01-31" });
    expect(await reason(expired.code)).toBe("This code has expired");
    const later = await makeCode({ starts_on: "2099-01-01" });
    expect(await reason(later.code)).toMatch(/^This code can be used from .*2099$/);
    const offPeakOnly = await makeCode({ offering_ids: [offerings.offerings.offPeak.offering_id] });
    expect(await reason(offPeakOnly.code)).toBe("This code is for the Off-Peak membership");
    const anytimeOnly = await makeCode({ price_ids: [offerings.prices.anytimeWeekly.price_id] });
    expect(await reason(anytimeOnly.code, offerings.prices.offPeakWeekly.price_id)).toBe(
      "This code is for the Anytime Membership",
    );
    // Another price of the membership being joined: named as such, not as that membership.
    expect(await reason(anytimeOnly.code, offerings.prices.anytimeTerm.price_id)).toBe(
      "This code is for another price of the Anytime Membership",
    );
    const newmarketOnly = await makeCode({ gym_id: newmarket });
    expect(await reason(newmarketOnly.code)).toMatch(/^This code is for members of /);
    const archived = await makeCode();
    await admin.delete(`/api/promo-codes/${archived.id}/archive`);
    expect(await reason(archived.code)).toBe("This code is no longer offered.");
    const missing = await client.get("/api/promo-codes/check");
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(["code", "price_id"]);
    const otherPrice = await client.get(
      `/api/promo-codes/check?code=${anytimeOnly.code}&price_id=${offerings.prices.strengthWeekly.price_id}`,
    );
    expect(otherPrice.status).toBe(404);
  });
});

describe("POST /api/subscriptions {promo_code}", () => {
  it("discounts the first N periods exactly, and the payment carries the discount", async () => {
    const code = await makeCode({ periods: 2 });
    const { client } = await joiner();
    const res = await client.post("/api/subscriptions", {
      price_id: offerings.prices.anytimeWeekly.price_id,
      promo_code: code.code,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.first_payment).toMatchObject({ amount: 1_200, discount: 1_200 });
    const [second, third] = await laterCharges(res.body.data.id, 2);
    expect([second.amount, second.discount]).toEqual([1_200, 1_200]);
    expect([third.amount, third.discount]).toEqual([2_400, 0]);
    const codesNow = await admin.get("/api/promo-codes");
    expect(codesNow.body.data.find((c: { id: string }) => c.id === code.id).uses).toBe(1);
  });

  it("refuses a code that may not be used (422 on promo_code) and makes nothing", async () => {
    const code = await makeCode({ offering_ids: [offerings.offerings.offPeak.offering_id] });
    const { client, userId } = await joiner();
    const res = await client.post("/api/subscriptions", {
      price_id: offerings.prices.anytimeWeekly.price_id,
      promo_code: code.code,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.promo_code[0]).toBe("This code is for the Off-Peak membership");
    const { memberSubscriptions } = await import("@gym/core/subscription/store");
    expect(await memberSubscriptions(organisationId, userId)).toEqual([]);
  });

  it("is one use per member: the check says so once they have used it", async () => {
    const code = await makeCode();
    const { client } = await joiner();
    const price = offerings.prices.anytimeWeekly.price_id;
    expect((await client.post("/api/subscriptions", { price_id: price, promo_code: code.code })).status).toBe(
      201,
    );
    const again = await client.get(`/api/promo-codes/check?code=${code.code}&price_id=${price}`);
    expect(again.status).toBe(422);
    expect(again.body.errors.code[0]).toBe("You have already used this code");
  });

  it("archiving or changing a code never changes what members who joined with it pay", async () => {
    const code = await makeCode({
      kind: "fixed",
      amount_off: 500,
      percent_basis_points: null,
      periods: null,
    });
    const { client } = await joiner();
    const res = await client.post("/api/subscriptions", {
      price_id: offerings.prices.anytimeWeekly.price_id,
      promo_code: code.code,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.first_payment.amount).toBe(1_900);
    expect((await admin.put(`/api/promo-codes/${code.id}`, { kind: "fixed", amount_off: 100 })).status).toBe(
      200,
    );
    expect((await admin.delete(`/api/promo-codes/${code.id}/archive`)).status).toBe(200);
    const later = await laterCharges(res.body.data.id, 3);
    expect(later.map((c) => [c.amount, c.discount])).toEqual([
      [1_900, 500],
      [1_900, 500],
      [1_900, 500],
    ]);
  });

  it("the staff start-now preview of a member starting later shows the discounted first payment", async () => {
    const code = await makeCode();
    const { client } = await joiner();
    const { addDays } = await import("@gym/core/billing/calendar");
    const { businessToday } = await import("@gym/core/clock");
    const start = addDays(await businessToday(), 5);
    const res = await client.post("/api/subscriptions", {
      price_id: offerings.prices.anytimeWeekly.price_id,
      promo_code: code.code,
      start_date: start,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.first_payment.amount).toBe(1_200);
    const preview = await admin.get(`/api/subscriptions/${res.body.data.id}/start-early-data`);
    expect(preview.status).toBe(200);
    expect(preview.body.data.first_payment).toMatchObject({ amount: 1_200, formatted_amount: "$12.00" });
  });

  it("holds a use limit under parallel joins: 1 use left, 5 joins at once, 1 succeeds", async () => {
    const code = await makeCode({ use_limit: 1 });
    const racers = await Promise.all([1, 2, 3, 4, 5].map(() => joiner()));
    const answers = await Promise.all(
      racers.map((r) =>
        r.client.post("/api/subscriptions", {
          price_id: offerings.prices.anytimeWeekly.price_id,
          promo_code: code.code,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422]);
    for (const lost of answers.filter((a) => a.status === 422))
      expect(lost.body.errors.promo_code[0]).toBe("This code has been used up");
    const list = await admin.get("/api/promo-codes");
    expect(list.body.data.find((c: { id: string }) => c.id === code.id)).toMatchObject({
      uses: 1,
      uses_left: 0,
      status: "used_up",
    });
    // The losers made nothing: no subscription, no payment.
    const { memberSubscriptions } = await import("@gym/core/subscription/store");
    const made = await Promise.all(racers.map((r) => memberSubscriptions(organisationId, r.userId)));
    expect(made.flat()).toHaveLength(1);
  });

  it("shows the discount as a line of the receipt; the lines add up to what was paid", async () => {
    const code = await makeCode();
    const { client } = await joiner();
    const res = await client.post("/api/subscriptions", {
      price_id: offerings.prices.anytimeWeekly.price_id,
      promo_code: code.code,
    });
    const { findPayment } = await import("@gym/core/payment/store");
    const { receiptContent } = await import("@gym/core/receipt/service");
    const payment = await findPayment(organisationId, res.body.data.first_payment.id);
    if (!payment) throw new Error("no payment");
    const receipt = await receiptContent(payment);
    expect(receipt.lines[0]).toMatchObject({ amount: 2_400 });
    expect(receipt.lines[1]).toEqual({
      label: `Promo code ${code.code}`,
      amount: -1_200,
      formatted_amount: "-$12.00",
    });
    expect(receipt.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(receipt.total);
    expect(receipt.total).toBe(payment.amount + payment.surcharge);
  });
});
