/**
 * The expected-payments page's "needs attention" part (issue 39 item 4; docs/payments.md): read from
 * the sparse attention index, open payments due before today, newest first. What it reads grows with
 * the payments still open, not with the organisation's settled history, and an old overdue payment
 * is shown however far back it fell due.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { countDynamoRequests, type RequestCount } from "../../../../tests/bench/measure";
import { signIn, useSeededApi } from "../../../../tests/support/api";
import type { HttpClient } from "../../../../tests/support/http";
import { addDays, startOfAucklandDay } from "../billing/calendar";
import { businessToday } from "../clock";
import { db } from "../db/service";
import { deterministicUlid } from "./ids";
import { attentionKeys } from "./store";

const api = useSeededApi();
const SETTLED = 1_500;
let counts: RequestCount;
let admin: HttpClient;
let recent: string;
let old: string;

beforeAll(async () => {
  const organisationId = api.seed.organisations.harbour.organisation_id;
  const gymId = api.seed.gyms.ponsonby.gym_id;
  const today = await businessToday();
  const payment = (due: string, seed: string, status: "sent" | "upcoming") => {
    const record = {
      organisation_id: organisationId,
      payment_id: deterministicUlid(startOfAucklandDay(due), seed),
      user_id: api.seed.people.trainer.user_id,
      gym_id: gymId,
      status,
      type: "stripe_card" as const,
      amount: 2400,
      due_on: due,
      member_name: "history member",
      member_email: "history@example.net",
      gym_name: "Harbour Fitness Ponsonby",
    };
    return status === "upcoming" ? { ...record, ...attentionKeys(record) } : record;
  };
  // A month of settled history: never in the attention index.
  const settled = Array.from({ length: SETTLED }, (_, i) =>
    payment(addDays(today, -1 - (i % 30)), `s${i}`, "sent"),
  );
  const overdueRecent = payment(addDays(today, -3), "overdue-recent", "upcoming");
  const overdueOld = payment(addDays(today, -45), "overdue-old", "upcoming");
  recent = overdueRecent.payment_id;
  old = overdueOld.payment_id;
  const all = [...settled, overdueRecent, overdueOld];
  for (let i = 0; i < all.length; i += 25)
    await db()
      .entities.payment.put(all.slice(i, i + 25))
      .go();
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
});
