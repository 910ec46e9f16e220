/**
 * The expected-payments page's "needs attention" part (issue 39 item 4; docs/payments.md): read from
 * the sparse attention index, open payments due before today, newest first. What it reads grows with
 * the payments still open, not with the organisation's settled history, and an old overdue payment
 * is shown however far back it fell due. Its days ahead come from the scheduled-payment counters
 * (docs/data-model.md "Rollups"): what they read does not grow with the payments due in them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { countDynamoRequests, type RequestCount } from "../../../../tests/bench/measure";
import { signIn, useSeededApi } from "../../../../tests/support/api";
import type { HttpClient } from "../../../../tests/support/http";
import { addDays, startOfAucklandDay } from "../billing/calendar";
import { businessToday } from "../clock";
import { db } from "../db/service";
import { type ScheduledLike, scheduledChanges } from "../rollup/money";
import { rollupItems } from "../rollup/writes";
import { deterministicUlid } from "./ids";
import { attentionKeys, monthKeys } from "./store";

const api = useSeededApi();
const SETTLED = 1_500;
let counts: RequestCount;
let admin: HttpClient;
let recent: string;
let old: string;

/** A payment of the seeded organisation's Ponsonby gym, due on `due`; an upcoming one is in the attention index. */
function payment(due: string, seed: string, status: "sent" | "upcoming") {
  const record = {
    organisation_id: api.seed.organisations.harbour.organisation_id,
    payment_id: deterministicUlid(startOfAucklandDay(due), seed),
    user_id: api.seed.people.trainer.user_id,
    gym_id: api.seed.gyms.ponsonby.gym_id,
    status,
    type: "stripe_card" as const,
    amount: 2400,
    due_on: due,
    member_name: "history member",
    member_email: "history@example.net",
    gym_name: "Harbour Fitness Ponsonby",
  };
  return status === "upcoming" ? { ...record, ...attentionKeys(record) } : record;
}

/**
 * Writes payments directly, with the scheduled-payment counters their creation adds (as every
 * engine write of a payment does, in its own transaction).
 */
async function putPayments(list: Record<string, unknown>[]) {
  for (let i = 0; i < list.length; i += 25)
    await db()
      .entities.payment.put(list.slice(i, i + 25) as never)
      .go();
  const changes = list.flatMap((p) => scheduledChanges(null, p as unknown as ScheduledLike));
  if (changes.length)
    await db()
      .transaction.write(({ rollup, memberMonth }) => rollupItems({ rollup, memberMonth }, ...changes))
      .go();
}

beforeAll(async () => {
  const today = await businessToday();
  // A month of settled history: never in the attention index.
  const settled = Array.from({ length: SETTLED }, (_, i) =>
    payment(addDays(today, -1 - (i % 30)), `s${i}`, "sent"),
  );
  const overdueRecent = payment(addDays(today, -3), "overdue-recent", "upcoming");
  const overdueOld = payment(addDays(today, -45), "overdue-old", "upcoming");
  recent = overdueRecent.payment_id;
  old = overdueOld.payment_id;
  await putPayments([...settled, overdueRecent, overdueOld]);
  admin = await signIn(api.url, "admin@example.com");
  counts = await countDynamoRequests();
  counts.counting = false;
}, 120_000);

describe("expected payments: needs attention", () => {
  it("reads the open payments, not the settled month, and shows every overdue one newest first", async () => {
    Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
    const res = await admin.get("/api/expected-payments-debugging?days=7");
    counts.counting = false;
    expect(res.status).toBe(200);
    const stuck = res.body.data.stuck as { reason: string; payment: { id: string } }[];
    const overdue = stuck.filter((s) => s.reason === "overdue").map((s) => s.payment.id);
    expect(overdue).toContain(recent);
    expect(overdue).toContain(old);
    expect(overdue.indexOf(recent)).toBeLessThan(overdue.indexOf(old));
    expect(counts.items, JSON.stringify(counts.byCommand)).toBeLessThan(300);
  });

  it("totals the days ahead from the counters: a bounded read however many payments fall due, equal to a count of them", async () => {
    const today = await businessToday();
    const gym = api.seed.gyms.ponsonby.gym_id;
    // 1,500 payments to charge over the next 7 days (a busy organisation's week), cards and banks.
    const due = Array.from({ length: 1_500 }, (_, i) => {
      const p = payment(addDays(today, i % 7), `d${i}`, "upcoming");
      return {
        ...p,
        ...monthKeys(p),
        type: i % 3 ? ("stripe_card" as const) : ("bank_account" as const),
        amount: 2000 + (i % 5) * 100,
        surcharge: i % 3 ? 50 : 0,
      };
    });
    for (const month of new Set(due.map((p) => p.due_on.slice(0, 7))))
      await db().entities.paymentMonth.put({ organisation_id: due[0].organisation_id, month }).go();
    await putPayments(due);

    Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
    const res = await admin.get("/api/expected-payments-debugging?days=7");
    counts.counting = false;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(counts.items, JSON.stringify(counts.byCommand)).toBeLessThan(300);
    expect(res.body.data.partial).toBe(false);

    type Day = { date: string; count: number; total: number; gyms: Record<string, unknown>[] };
    const direct = new Map<
      string,
      { count: number; amount: number; surcharge: number; by: Record<string, number> }
    >();
    for (const p of due) {
      const d = direct.get(p.due_on) ?? { count: 0, amount: 0, surcharge: 0, by: {} };
      d.count += 1;
      d.amount += p.amount;
      d.surcharge += p.surcharge;
      d.by[p.type] = (d.by[p.type] ?? 0) + 1;
      direct.set(p.due_on, d);
    }
    const shown = res.body.data.days as Day[];
    expect(shown.map((d) => d.date)).toEqual([...direct.keys()].sort());
    for (const day of shown) {
      const d = direct.get(day.date);
      expect(day.count).toBe(d?.count);
      expect(day.total).toBe((d?.amount ?? 0) + (d?.surcharge ?? 0));
      expect(day.gyms).toEqual([
        expect.objectContaining({
          gym: { id: gym, name: expect.any(String) },
          count: d?.count,
          amount: d?.amount,
          surcharge: d?.surcharge,
          by_type: d?.by,
        }),
      ]);
    }
  });

  it("shows the newest overdue payment first beside a page of payments due soon waiting for consent, and pages on through older ones, each once", async () => {
    const today = await businessToday();
    const tomorrow = addDays(today, 1);
    // More payments due soon waiting for a new bank consent than a page shows (they once filled it).
    const waiting = Array.from({ length: 210 }, (_, i) => {
      const p = payment(tomorrow, `w${i}`, "upcoming");
      return { ...p, ...monthKeys(p), waiting_for: "bank_consent" };
    });
    // More overdue payments than a page of the attention index, all older than the newest one.
    const older = Array.from({ length: 130 }, (_, i) =>
      payment(addDays(today, -20 - (i % 20)), `o${i}`, "upcoming"),
    );
    const newest = payment(addDays(today, -2), "overdue-newest", "upcoming");
    await db()
      .entities.paymentMonth.put({ organisation_id: newest.organisation_id, month: tomorrow.slice(0, 7) })
      .go();
    await putPayments([...waiting, ...older, newest]);

    const first = await admin.get("/api/expected-payments-debugging?days=7");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    type Stuck = { reason: string; payment: { id: string; due_on: string } };
    const overdueOf = (body: { stuck: Stuck[] }) =>
      body.stuck.filter((s) => s.reason === "overdue").map((s) => s.payment);
    const firstOverdue = overdueOf(first.body.data);
    expect(firstOverdue[0]?.id).toBe(newest.payment_id);
    expect(
      first.body.data.stuck.filter((s: Stuck) => s.reason === "waiting_for_consent").length,
    ).toBeGreaterThan(0);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));

    // Page by page: every overdue payment once, newest due first.
    const seen = [...firstOverdue];
    let cursor: string | null = first.body.data.next_cursor;
    let pages = 1;
    while (cursor && pages < 20) {
      const res = await admin.get(
        `/api/expected-payments-debugging?days=7&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...overdueOf(res.body.data));
      cursor = res.body.data.next_cursor;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    const ids = seen.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of [newest, ...older, { payment_id: recent }, { payment_id: old }])
      expect(ids).toContain(p.payment_id);
    const keys = seen.map((p) => `${p.due_on}#${p.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it("answers the debt owed now from the dashboard's counters, as the dashboard does", async () => {
    const [expected, stats] = await Promise.all([
      admin.get("/api/expected-payments-debugging?days=7"),
      admin.get("/api/stats?scope=organisation"),
    ]);
    expect(expected.status).toBe(200);
    expect(stats.status).toBe(200);
    expect(expected.body.data.owing).toEqual({
      amount: stats.body.data.owing_amount.current,
      count: stats.body.data.owing_count.current,
      formatted_amount: expect.any(String),
    });
  });

  it("refuses a cursor that is not one (422)", async () => {
    const res = await admin.get("/api/expected-payments-debugging?cursor=not-a-cursor");
    expect(res.status).toBe(422);
  });
});
