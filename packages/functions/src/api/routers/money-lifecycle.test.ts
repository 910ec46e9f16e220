/**
 * Issue 22, the lifecycle part: pay-in-full spans and unpaid transfers, booked pauses and
 * cancellation, one civil-date rule, formula-safe CSV exports, price changes that show the new
 * offering, and the dashboard's `{ data }` envelope. Written from docs/billing.md, docs/exports.md
 * and the spec, over real HTTP.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";

const api = useSeededApi();
let admin: HttpClient;
let today: string;
let addDays: (d: string, n: number) => string;
let addMonths: (d: string, n: number) => string;
let prices: Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>["prices"];
let offerings: Awaited<ReturnType<typeof import("../../local/seed/offerings")["seedOfferings"]>>["offerings"];

let n = 0;
async function member(priceId: string, name = `Trust Member${n + 1}`) {
  const { createSubscription } = await import("@gym/core/subscription/service");
  const gymId = api.seed.gyms.ponsonby.gym_id;
  const email = `trust${++n}@example.com`;
  const { user } = await addMember(api.seed, { name, email, gymId });
  const { subscription } = await createSubscription({
    organisation_id: api.seed.organisations.harbour.organisation_id,
    user_id: user.user_id,
    gym_id: gymId,
    price_id: priceId,
    start_date: today,
  });
  return { userId: user.user_id, id: subscription.subscription_id, email };
}

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  ({ prices, offerings } = await seedOfferings(api.seed));
  today = await (await import("@gym/core/clock")).businessToday();
  const calendar = await import("@gym/core/billing/calendar");
  addDays = calendar.addDays;
  addMonths = calendar.addMonthsClamped;
  admin = await signIn(api.url, "admin@example.com");
});

const civil = (iso: string) => new Date(new Date(iso).getTime() + 13 * 3_600_000).toISOString().slice(0, 10);

describe("pay in full runs for the price's span", () => {
  it("a PIF price must say how long it covers (422 without a term)", async () => {
    const res = await admin.post(`/api/offerings/${offerings.summer.offering_id}/prices`, {
      amount: 19_900,
      billing_frequency: "one_off",
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.term_unit[0]).toBe("Please select a term unit");
  });

  it.each([
    [3, "months"],
    [10, "weeks"],
    [2, "years"],
  ] as const)("a %i %s pass paid in full ends that long after it starts", async (amount, unit) => {
    const created = await admin.post(`/api/offerings/${offerings.summer.offering_id}/prices`, {
      amount: 20_000 + amount,
      billing_frequency: "one_off",
      term_amount: amount,
      term_unit: unit,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.membership_type).toBe("PIF");
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, {
      name: `Pass ${unit}`,
      email: `pass-${unit}@example.com`,
      gymId,
    });
    const added = await admin.post(`/api/members/${user.user_id}/pif`, {
      price_id: created.body.data.id,
      gym_id: gymId,
      payment_method: "eftpos",
    });
    expect(added.status).toBe(201);
    const ends =
      unit === "weeks"
        ? addDays(today, amount * 7)
        : addMonths(today, unit === "years" ? amount * 12 : amount);
    expect(civil(added.body.data.pif_ends_at)).toBe(ends);
    expect(added.body.data).toMatchObject({ membership_type: "PIF", is_term_membership: false });
    // Paid up front: cancelling costs nothing more.
    const preview = await admin.get(`/api/subscriptions/${added.body.data.id}/cancellation-preview`);
    expect(preview.body.data.break_fee).toBe(0);
  });

  it("the seeded Summer Pass (three months, paid up front) runs three months", async () => {
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, { name: "Summer Pass", email: "summer@example.com", gymId });
    const added = await admin.post(`/api/members/${user.user_id}/pif`, {
      price_id: prices.summerPif.price_id,
      gym_id: gymId,
      payment_method: "cash",
    });
    expect(added.status).toBe(201);
    expect(civil(added.body.data.pif_ends_at)).toBe(addMonths(today, 3));
  });
});

describe("an unpaid pay-in-full bank transfer", () => {
  it("is owing with no door access until staff mark it received", async () => {
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, {
      name: "Transfer Pending",
      email: "transfer@example.com",
      gymId,
    });
    const added = await admin.post(`/api/members/${user.user_id}/pif`, {
      price_id: prices.summerPif.price_id,
      gym_id: gymId,
      payment_method: "bank_transfer",
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ balance_owing: 29_900, periods_owing: 1 });
    expect(added.body.data.door_access).toMatchObject({
      standing: false,
      reason: "Pay-in-full payment not received",
    });
    const shown = await admin.get(`/api/members/${user.user_id}`);
    expect(shown.body.data.latest_subscription).toMatchObject({ balance_owing: 29_900 });
    expect(shown.body.data.latest_subscription.door_access.standing).toBe(false);

    const received = await admin.post(`/api/payments/${added.body.data.first_payment.id}/received`);
    expect(received.status).toBe(200);
    const after = await admin.get(`/api/subscriptions/${added.body.data.id}`);
    expect(after.body.data).toMatchObject({ balance_owing: 0, periods_owing: 0, payments_sum: 29_900 });
    expect(after.body.data.door_access).toMatchObject({ standing: true, reason: "Active" });
  });
});

describe("a booked pause", () => {
  it("is removed with its days returned when the membership is cancelled", async () => {
    const { id } = await member(prices.anytimeWeekly.price_id);
    const paused = await admin.post(`/api/subscriptions/${id}/pause`, {
      pause_start_at: addDays(today, 10),
      pause_end_at: addDays(today, 17),
    });
    expect(paused.body.data.pause_days_remaining).toBe(23);
    const cancelled = await admin.post(`/api/subscriptions/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      pauses: [],
      pause_start_at: null,
      pause_end_at: null,
      pause_days_remaining: 30,
      is_paused: false,
      pause_in_future: false,
    });
  });

  it("a member removes the pause they booked (their own only)", async () => {
    const mine = await member(prices.anytimeWeekly.price_id);
    const client = await signIn(api.url, mine.email);
    const booked = await client.post(`/api/me/subscriptions/${mine.id}/pause`, {
      pause_start_at: addDays(today, 3),
      pause_end_at: addDays(today, 8),
    });
    expect(booked.status).toBe(200);
    const other = await member(prices.anytimeWeekly.price_id);
    const otherClient = await signIn(api.url, other.email);
    expect((await otherClient.delete(`/api/me/subscriptions/${mine.id}/pause`)).status).toBe(404);
    const removed = await client.delete(`/api/me/subscriptions/${mine.id}/pause`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ pauses: [], pause_days_remaining: 30, pause_in_future: false });
    expect((await client.delete(`/api/me/subscriptions/${mine.id}/pause`)).status).toBe(409);
  });
});

describe("a member's own pause, by first and last day", () => {
  it("keeps its last day: the join site's form sends the day after it, and both sides show it paused", async () => {
    const { pauseFromDays } = await import("@gym/core/contract/lifecycle");
    const mine = await member(prices.anytimeWeekly.price_id);
    const client = await signIn(api.url, mine.email);
    const first = addDays(today, 10);
    const last = addDays(today, 16); // 7 days paused, back on the 17th day
    const booked = await client.post(
      `/api/me/subscriptions/${mine.id}/pause`,
      pauseFromDays({ pause_start_at: first, pause_last_day: last }),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.data).toMatchObject({ pause_last_day: last, pause_days_remaining: 23 });
    expect(civil(booked.body.data.pause_end_at)).toBe(addDays(last, 1));
    const staff = await admin.get(`/api/subscriptions/${mine.id}`);
    expect(staff.body.data).toMatchObject({ pause_last_day: last, pause_days_remaining: 23 });
    expect(civil(staff.body.data.pause_end_at)).toBe(addDays(last, 1));
  });
});

describe("one civil-date rule", () => {
  it.each(["2027-02-30", "2027-02-29", "2027-13-01", "2026-04-31T00:00:00Z"])(
    "a pause from %s is refused with a field message",
    async (date) => {
      const { id } = await member(prices.anytimeWeekly.price_id);
      const res = await admin.post(`/api/subscriptions/${id}/pause`, {
        pause_start_at: date,
        pause_end_at: "2027-03-10",
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.pause_start_at[0]).toBe("Enter a date as YYYY-MM-DD");
    },
  );

  it("impossible dates in query strings are 422 (dashboard, visits)", async () => {
    const dash = await admin.get(
      "/api/cost-and-visit-breakdown?scope=organisation&from=2027-02-30&to=2027-03-02",
    );
    expect(dash.status).toBe(422);
    expect(dash.body.errors.from[0]).toBe("Enter a date as YYYY-MM-DD");
    const visits = await admin.get("/api/visits?from=2027-02-29");
    expect(visits.status).toBe(422);
    expect(visits.body.errors.from[0]).toBe("Enter a date as YYYY-MM-DD");
  });
});

describe("CSV exports neutralise formulas (OWASP CSV injection)", () => {
  it("a member named like a formula is written as text in the members and payments files", async () => {
    const names = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"];
    for (const name of names) await member(prices.anytimeWeekly.price_id, name);
    const members = await admin.exportCsv("/api/members/export", {});
    expect(members.call.status).toBe(303);
    const payments = await admin.exportCsv("/api/payments/export", {});
    for (const file of [members.file?.text ?? "", payments.file?.text ?? ""]) {
      for (const line of file.split("\n"))
        for (const cell of line.split(",")) expect(cell.replace(/^"/, ""), line).not.toMatch(/^[=+@\-\t\r]/);
    }
    expect(members.file?.text.toLowerCase()).toContain(`"'=hyperlink(""http://x"",""y"")"`);
    // Names are written title-cased (docs/exports.md): the escape is what matters here.
    expect(payments.file?.text.toLowerCase()).toContain("'@sum(1+1)");
  });
});

describe("the dashboard answers in the { data } envelope", () => {
  it.each(["/api/stats", "/api/user-breakdown", "/api/cost-and-visit-breakdown"])("%s", async (path) => {
    const res = await admin.get(`${path}?scope=organisation`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ scope: "organisation" });
  });
});

describe("a price change", () => {
  it("names the new offering in the email, and the membership shows the new offering once in effect", async () => {
    const { id } = await member(prices.offPeakWeekly.price_id);
    const preview = await admin.post("/api/subscriptions/change-price-email-preview", {
      subscription_ids: [id],
      price_id: prices.anytimeWeekly.price_id,
      transition_takes_effect_at: addDays(today, 31),
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const text: string = preview.body.data[0].text;
    expect(text).toContain("from Off-Peak to Anytime Membership, at $24.00 (weekly) instead of $15.00");
    expect(text).not.toContain("your Off-Peak membership");
    const scheduled = await admin.post("/api/subscriptions/schedule-price-change", {
      subscription_ids: [id],
      price_id: prices.anytimeWeekly.price_id,
      transition_takes_effect_at: addDays(today, 31),
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const before = await admin.get(`/api/subscriptions/${id}`);
    expect(before.body.data.price).toMatchObject({ label: "$15.00 Weekly", offering: { name: "Off-Peak" } });
    // The change takes effect (the last test of the file: the clock stays moved).
    expect((await admin.post("/api/dev/clock", { advance_days: 32 })).status).toBe(200);
    const after = await admin.get(`/api/subscriptions/${id}`);
    expect(after.body.data.price).toMatchObject({
      id: prices.anytimeWeekly.price_id,
      label: "$24.00 Weekly",
      amount: 2_400,
      offering: { name: "Anytime Membership" },
    });
    const listed = await admin.get("/api/members?per_page=100");
    const row = (listed.body.data as { latest_subscription: { id: string } | null }[]).find(
      (m) => m.latest_subscription?.id === id,
    );
    expect(row?.latest_subscription).toMatchObject({
      offering: { name: "Anytime Membership" },
      price: { label: "$24.00 Weekly" },
    });
  });
});
