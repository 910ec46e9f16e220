import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type SeededPayments, seedPayments } from "../../../../../tests/support/payments";

const api = useSeededApi();
let admin: HttpClient;
let trainer: HttpClient;
let manager: HttpClient;
let outsider: HttpClient;
let member: HttpClient;
let seeded: SeededPayments;
let ponsonby: string;
let newmarket: string;

beforeAll(async () => {
  const { seedOfferings } = await import("../../local/seed/offerings");
  const offerings = await seedOfferings(api.seed);
  seeded = await seedPayments(api.seed, offerings, 6);
  ponsonby = api.seed.gyms.ponsonby.gym_id;
  newmarket = api.seed.gyms.newmarket.gym_id;
  [admin, trainer, outsider, member, manager] = await Promise.all([
    signIn(api.url, "admin@example.com"),
    signIn(api.url, "trainer@example.com"),
    signIn(api.url, "owner@example.org"),
    signIn(api.url, "member@example.com"),
    signIn(api.url, "manager@example.com"),
  ]);
});

type Row = { id: string; due_on: string; gym: { id: string; name: string }; status: string; type: string };

async function everyPage(client: HttpClient, query: string) {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: any } = await client.get(
      `/api/payments?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    pages++;
  } while (cursor && pages < 50);
  return { rows, pages };
}

describe("GET /api/payments", () => {
  it("lists the organisation's payments newest first with member, gym, price and surcharge", async () => {
    const res = await admin.get("/api/payments");
    expect(res.status).toBe(200);
    const rows = res.body.data as (Row & Record<string, any>)[];
    expect(rows).toHaveLength(seeded.all.length);
    const dues = rows.map((r) => r.due_on);
    expect(dues).toEqual([...dues].sort().reverse());
    const card = rows.find((r) => r.id === seeded.card.paymentId)!;
    // Names are shown title-cased (spec), as the members list shows them.
    expect(card.user.name).toMatch(/Payer 000 Card/);
    expect(card.gym.name).toBe("Harbour Fitness Ponsonby");
    expect(card.price_label).toBeTruthy();
    expect(card.amount).toBe(2_400);
    // Organisation default card surcharge: 2.5 % + 30 c.
    expect(card.surcharge).toBe(90);
    expect(card.total).toBe(2_490);
    const bank = rows.find((r) => r.id === seeded.bank.paymentId)!;
    expect(bank.surcharge).toBe(0);
    expect(res.body.meta).toEqual({ next_cursor: null, per_page: 25 });
  });

  it("pages with a cursor: every payment once, in order", async () => {
    const { rows, pages } = await everyPage(admin, "per_page=2");
    expect(pages).toBe(Math.ceil(seeded.all.length / 2));
    expect(new Set(rows.map((r) => r.id)).size).toBe(seeded.all.length);
    const dues = rows.map((r) => r.due_on);
    expect(dues).toEqual([...dues].sort().reverse());
  });

  it("filters by status, type, gym and due-date range (and pages through filters)", async () => {
    const awaiting = await everyPage(admin, "status=awaiting_payment&per_page=1");
    expect(awaiting.rows.map((r) => r.id)).toEqual([seeded.transfer.paymentId]);
    const cards = await everyPage(admin, "type=stripe_card&per_page=2");
    expect(cards.rows.length).toBe(3);
    expect(cards.rows.every((r) => r.type === "stripe_card")).toBe(true);
    const atNewmarket = await everyPage(admin, `gym_id=${newmarket}`);
    expect(atNewmarket.rows.length).toBe(3);
    expect(atNewmarket.rows.every((r) => r.gym.id === newmarket)).toBe(true);
    const second = seeded.all[1].dueOn;
    const third = seeded.all[2].dueOn;
    const range = await everyPage(admin, `from=${second}&to=${third}`);
    expect(range.rows.map((r) => r.due_on).sort()).toEqual([second, third]);
  });

  it("shows a gym admin only their gyms' payments; another gym is not found", async () => {
    const { rows } = await everyPage(manager, "per_page=100");
    expect(rows.length).toBe(seeded.all.filter((p) => p.gymId === ponsonby).length);
    expect(rows.every((r) => r.gym.id === ponsonby)).toBe(true);
    expect((await manager.get(`/api/payments?gym_id=${newmarket}`)).status).toBe(404);
  });

  it("refuses a personal trainer the payments list (docs/access-control.md)", async () => {
    expect((await trainer.get("/api/payments")).status).toBe(403);
  });

  it("refuses members (403) and shows another organisation nothing", async () => {
    expect((await member.get("/api/payments")).status).toBe(403);
    const theirs = await outsider.get("/api/payments");
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect((await outsider.get(`/api/payments?gym_id=${ponsonby}`)).status).toBe(404);
  });

  it("answers 422 with field messages for bad filters and forged cursors", async () => {
    const cases: [string, string][] = [
      ["status=nope", "status"],
      ["type=cheque", "type"],
      ["from=2026-13-01", "from"],
      ["from=2026-05-02&to=2026-05-01", "to"],
      ["per_page=0", "per_page"],
      ["per_page=many", "per_page"],
      ["cursor=not-a-cursor", "cursor"],
    ];
    for (const [query, field] of cases) {
      const res = await admin.get(`/api/payments?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors[field], query).toBeTruthy();
    }
    // A real cursor of another organisation's list is refused, not followed.
    const page = await admin.get("/api/payments?per_page=1");
    const res = await outsider.get(`/api/payments?cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.cursor).toBeTruthy();
  });
});

describe("GET /api/users/{id}/payments", () => {
  it("lists one member's payments for staff who can see them", async () => {
    const res = await admin.get(`/api/users/${seeded.bank.userId}/payments`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: Row) => p.id)).toEqual([seeded.bank.paymentId]);
    // The trainer works at Ponsonby; the bank member's payment is at Newmarket.
    expect((await trainer.get(`/api/users/${seeded.bank.userId}/payments`)).body.data).toEqual([]);
    expect((await trainer.get(`/api/users/${seeded.card.userId}/payments`)).body.data).toHaveLength(1);
  });

  it("does not find another organisation's member, or anyone who is not one", async () => {
    expect((await outsider.get(`/api/users/${seeded.card.userId}/payments`)).status).toBe(404);
    expect((await admin.get("/api/users/01HZZZZZZZZZZZZZZZZZZZZZZZ/payments")).status).toBe(404);
    expect((await admin.get(`/api/users/${seeded.card.userId}/payments?per_page=500`)).status).toBe(422);
  });
});

describe("POST /api/payments/{id}/received", () => {
  it("lets a gym admin mark a bank transfer received, once", async () => {
    expect((await trainer.post(`/api/payments/${seeded.transfer.paymentId}/received`)).status).toBe(403);
    expect((await outsider.post(`/api/payments/${seeded.transfer.paymentId}/received`)).status).toBe(404);
    const me = (await admin.get("/api/me")).body.data;
    const res = await admin.post(`/api/payments/${seeded.transfer.paymentId}/received`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("sent");
    expect(res.body.data.processed_by).toBe(me.id);
    const again = await admin.post(`/api/payments/${seeded.transfer.paymentId}/received`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("not_awaiting_payment");
  });

  it("refuses payments that are not awaiting payment (409) and unknown ones (404)", async () => {
    expect((await admin.post(`/api/payments/${seeded.card.paymentId}/received`)).status).toBe(409);
    expect((await admin.post("/api/payments/01HZZZZZZZZZZZZZZZZZZZZZZZ/received")).status).toBe(404);
  });
});

describe("POST /api/payments/export", () => {
  it("writes the filtered list as CSV with dollars and en-NZ dates, and redirects to it", async () => {
    const { call, file } = await admin.exportCsv("/api/payments/export", { type: "stripe_card" });
    expect(call.status).toBe(303);
    expect(call.headers.get("location")).toMatch(
      /^\/exports\/.+\/payments-\d{4}-\d{2}-\d{2}\.csv\?expires=\d+&signature=/,
    );
    expect(file?.status).toBe(200);
    expect(file?.headers.get("content-type")).toMatch(/text\/csv/);
    expect(file?.headers.get("content-disposition")).toMatch(
      /attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = file!.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines[0]).toMatch(/^Payment ID,Due date,Member,Email,Gym,Membership,Type,Status,Amount \(NZD\)/);
    expect(lines).toHaveLength(1 + 3);
    const first = lines.find((l) => l.startsWith(seeded.card.paymentId))!;
    expect(first).toContain(",24.00,0.90,24.90,");
    const [y, m, d] = seeded.all[0].dueOn.split("-");
    expect(first).toContain(`,${Number(d)}/${m}/${y},`);
  });

  it("writes the labels the screens show, never the codes (issue 35: one set of labels)", async () => {
    const { paymentKindLabels, paymentStatusLabels } = await import("@gym/core/contract/labels");
    const { file } = await admin.exportCsv("/api/payments/export", {});
    const rows = file!.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n")
      .slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).not.toMatch(
        /,(stripe_card|bank_account|pif|awaiting_payment|pending_request|sent|upcoming),/,
      );
      const labelled = Object.values(paymentKindLabels).some((label) => row.includes(`,${label},`));
      expect(labelled, row).toBe(true);
      expect(
        Object.values(paymentStatusLabels).some((label) => row.includes(`,${label},`)),
        row,
      ).toBe(true);
    }
    expect(rows.find((l) => l.startsWith(seeded.card.paymentId))).toContain(",Card,");
  });

  it("is for admins, and checks its filters", async () => {
    expect((await trainer.post("/api/payments/export", {})).status).toBe(403);
    expect((await member.post("/api/payments/export", {})).status).toBe(403);
    const bad = await admin.post("/api/payments/export", { status: "lost", from: "yesterday" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["from", "status"]);
    const empty = await outsider.exportCsv("/api/payments/export", {});
    expect(empty.call.status).toBe(303);
    expect(empty.file!.text.trim().split("\n")).toHaveLength(1);
  });

  it("serves the file only at its signed address", async () => {
    const { call } = await admin.exportCsv("/api/payments/export", {});
    const location = call.headers.get("location")!;
    const tampered = location.replace(/signature=[^&]+/, "signature=AAAA");
    expect((await fetch(admin.baseUrl + tampered)).status).toBe(403);
    const otherFile = location.replace(/payments-/, "members-");
    expect((await fetch(admin.baseUrl + otherFile)).status).toBe(403);
    const expired = location.replace(/expires=\d+/, "expires=1000");
    expect((await fetch(admin.baseUrl + expired)).status).toBe(403);
  });
});

describe("GET /api/expected-payments-debugging", () => {
  it("groups what the next runs will charge by date and gym", async () => {
    const res = await admin.get("/api/expected-payments-debugging?days=7");
    expect(res.status).toBe(200);
    const data = res.body.data;
    const upcoming = seeded.all.length - 1; // the PIF transfer is not charged by a run
    expect(data.days.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(upcoming);
    const first = data.days.find((d: { date: string }) => d.date === seeded.all[0].dueOn);
    expect(first.gyms[0].gym.name).toBe("Harbour Fitness Ponsonby");
    expect(first.gyms[0].total).toBe(2_490);
    expect(data.partial).toBe(false);
  });

  it("is for organisation admins and checks its query", async () => {
    expect((await trainer.get("/api/expected-payments-debugging")).status).toBe(403);
    expect((await member.get("/api/expected-payments-debugging")).status).toBe(403);
    const bad = await admin.get("/api/expected-payments-debugging?days=90");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.days).toBeTruthy();
    const theirs = await outsider.get("/api/expected-payments-debugging");
    expect(theirs.body.data.days).toEqual([]);
  });

  it("says when a stuck payment was sent to the provider as an Auckland date and time, not an instant", async () => {
    const { db } = await import("@gym/core/db/service");
    const { attentionKeys, workKeys } = await import("@gym/core/payment/store");
    const organisation_id = api.seed.organisations.harbour.organisation_id;
    const last = seeded.all[seeded.all.length - 2];
    const claimedAt = "2026-01-15T20:00:00.000Z";
    const key = { organisation_id, payment_id: last.paymentId };
    const before = await db().entities.payment.get(key).go();
    // As a claim on its due day leaves it: in flight, still open (the attention index).
    const dueOn = "2026-01-16";
    await db()
      .entities.payment.patch(key)
      .set({
        status: "pending_request",
        claimed_at: claimedAt,
        due_on: dueOn,
        ...workKeys.inflight(last.paymentId, claimedAt),
        ...attentionKeys({ ...key, due_on: dueOn }),
      })
      .go();
    try {
      const stuck = (await admin.get("/api/expected-payments-debugging")).body.data.stuck;
      const row = stuck.find((s: { payment: { id: string } }) => s.payment.id === last.paymentId);
      expect(row).toMatchObject({
        reason: "pending_too_long",
        detail: "Sent to the provider 16/01/2026 9:00 am and not settled.",
      });
    } finally {
      const was = before.data!;
      await db()
        .entities.payment.patch(key)
        .set({
          status: was.status,
          due_on: was.due_on,
          ...workKeys.due(last.paymentId, was.due_on),
          ...attentionKeys({ ...key, due_on: was.due_on }),
        })
        .remove(["claimed_at"])
        .go();
    }
  });
});
