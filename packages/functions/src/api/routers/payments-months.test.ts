/**
 * `GET /api/payments` over several months (docs/data-model.md "Indexes added for scale": the list
 * index is keyed by organisation and due month): the list walks the months newest first, pages
 * across their edges without losing or repeating a payment, and a payment whose due date moves to
 * another month is listed once, in its new month.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { addMember } from "../../../../../tests/support/payments";
import { addDays } from "../../../../core/src/billing/calendar";
import { businessToday } from "../../../../core/src/clock";
import { createSubscription } from "../../../../core/src/subscription/service";

const api = useSeededApi();
let admin: HttpClient;
/** First payments, one member each, due 0, 40, 80, 120 and 160 days from today (five months or more). */
const firsts: { userId: string; subscriptionId: string; paymentId: string; dueOn: string }[] = [];

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  const offerings = await seedOfferings(api.seed);
  const today = await businessToday();
  for (let i = 0; i < 5; i++) {
    const gymId = api.seed.gyms.ponsonby.gym_id;
    const { user } = await addMember(api.seed, {
      name: `month ${i}`,
      email: `month${i}@example.net`,
      gymId,
      method: "card",
    });
    const { subscription, first_payment } = await createSubscription({
      organisation_id: api.seed.organisations.harbour.organisation_id,
      user_id: user.user_id,
      gym_id: gymId,
      price_id: offerings.prices.anytimeWeekly.price_id,
      start_date: addDays(today, 40 * i),
    });
    firsts.push({
      userId: user.user_id,
      subscriptionId: subscription.subscription_id,
      paymentId: first_payment.payment_id,
      dueOn: first_payment.due_on,
    });
  }
  admin = await signIn(api.url, "admin@example.com");
});

type Row = { id: string; due_on: string; user: { id: string } };

async function everyPage(query: string) {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: any } = await admin.get(
      `/api/payments?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    pages++;
  } while (cursor && pages < 50);
  return { rows, pages };
}

const newestFirst = (rows: Row[]) =>
  rows.map((r) => `${r.due_on}#${r.id}`).every((k, i, all) => i === 0 || all[i - 1] > k);

describe("GET /api/payments across months", () => {
  it("spans several months", () => {
    expect(new Set(firsts.map((f) => f.dueOn.slice(0, 7))).size).toBeGreaterThanOrEqual(5);
  });

  it("lists every month's payments newest first, each once, on one page and page by page", async () => {
    const whole = await everyPage("per_page=100");
    expect(whole.pages).toBe(1);
    expect(newestFirst(whole.rows)).toBe(true);
    expect(whole.rows.map((r) => r.id)).toEqual(
      [...firsts].sort((a, b) => (a.dueOn < b.dueOn ? 1 : -1)).map((f) => f.paymentId),
    );
    for (const perPage of [1, 2, 3]) {
      const paged = await everyPage(`per_page=${perPage}`);
      expect(
        paged.rows.map((r) => r.id),
        `per_page=${perPage}`,
      ).toEqual(whole.rows.map((r) => r.id));
      expect(paged.pages, `per_page=${perPage}`).toBe(Math.ceil(whole.rows.length / perPage));
    }
  });

  it("walks only the months of a due-date range, across their edges", async () => {
    const [, second, third, fourth] = firsts;
    const range = await everyPage(`from=${second.dueOn}&to=${fourth.dueOn}&per_page=1`);
    expect(range.rows.map((r) => r.id)).toEqual([fourth.paymentId, third.paymentId, second.paymentId]);
  });

  it("lists a payment whose due date moves to another month once, in its new month", async () => {
    const moved = firsts[3];
    const res = await admin.post(`/api/subscriptions/${moved.subscriptionId}/start-now`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const today = await businessToday();
    const { rows } = await everyPage("per_page=2");
    const theirs = rows.filter((r) => r.user.id === moved.userId);
    expect(theirs).toHaveLength(1);
    expect(theirs[0].id).not.toBe(moved.paymentId);
    expect(theirs[0].due_on.slice(0, 7)).toBe(today.slice(0, 7));
    expect(newestFirst(rows)).toBe(true);
    // Its old month lists it no more.
    const old = await everyPage(`from=${moved.dueOn.slice(0, 7)}-01&to=${moved.dueOn}`);
    expect(old.rows.filter((r) => r.user.id === moved.userId)).toEqual([]);
  });
});
