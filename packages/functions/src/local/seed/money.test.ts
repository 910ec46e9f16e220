import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { db } from "@gym/core/db/service";
import { everyPayment } from "@gym/core/payment/every-payment";
import { monthlyPaymentsPage } from "@gym/core/payment/list";
import { beforeAll, describe, expect, it } from "vitest";
import { useSeededApi } from "../../../../../tests/support/api";
import { seedGyms } from "./gyms";
import { seedMoney } from "./money";
import { seedOfferings } from "./offerings";
import { seedVisits } from "./visits";

process.env.UPLOADS_DIR = mkdtempSync(join(tmpdir(), "gym-seed-"));
const api = useSeededApi();
let members = 0;

beforeAll(async () => {
  const { prices } = await seedOfferings(api.seed);
  await seedGyms(api.seed);
  ({ members } = await seedMoney(api.seed, {
    weekly: prices.anytimeWeekly.price_id,
    term: prices.anytimeTerm.price_id,
    pif: prices.summerPif.price_id,
  }));
  await seedVisits(api.seed);
}, 240_000);

describe("demo money", () => {
  it("has about 40 Ponsonby members in every state, with a year of history", async () => {
    expect(members).toBeGreaterThanOrEqual(40);
    const org = api.seed.organisations.harbour.organisation_id;
    const { data: subs } = await db()
      .entities.subscription.query.byGym({ organisation_id: org, gym_id: api.seed.gyms.ponsonby.gym_id })
      .go({ pages: "all" });
    expect(subs.length).toBeGreaterThanOrEqual(40);
    expect(subs.filter((s) => s.grace_period_ends_at && !s.hard_declined).length).toBeGreaterThanOrEqual(3);
    expect(subs.filter((s) => s.hard_declined).length).toBe(2);
    expect(subs.filter((s) => s.pause_start_at).length).toBe(2);
    expect(subs.filter((s) => s.cancelled_at).length).toBe(4);
    expect(subs.filter((s) => s.upcoming_state === "upcoming").length).toBeGreaterThanOrEqual(3);
    expect(subs.filter((s) => s.payment_method === "bank_account").length).toBe(8);
    expect(
      subs.filter((s) => s.cooling_period_ends_at && s.cooling_period_ends_at > new Date().toISOString())
        .length,
    ).toBeGreaterThanOrEqual(2);
    // Every payment of the organisation, found without the list index (a Scan: a test's count).
    const { data: payments } = await db()
      .entities.payment.scan.where((a, op) => op.eq(a.organisation_id, org))
      .go({ pages: "all" });
    expect(payments.filter((p) => p.status === "awaiting_payment")).toHaveLength(2);
    expect(payments.filter((p) => p.status === "sent").length).toBeGreaterThan(500);
    expect(payments.filter((p) => p.status === "declined").length).toBe(2);
    // Every payment of the year is in the list index (organisation and due month), newest first, once.
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await monthlyPaymentsPage({
        organisationId: org,
        gymIds: null,
        filters: {},
        cursor,
        perPage: 100,
      });
      listed.push(...page.items.map((p) => `${p.due_on}#${p.payment_id}`));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(listed).toEqual(
      payments
        .map((p) => `${p.due_on}#${p.payment_id}`)
        .sort()
        .reverse(),
    );
  });

  it("has dashboard rollups that agree with a direct count of its year of payments", async () => {
    const org = api.seed.organisations.harbour.organisation_id;
    const payments = await everyPayment(org);
    const { data: rows } = await db()
      .entities.rollup.query.primary({ organisation_id: org, scope: "_organisation" })
      .go({ pages: "all" });
    const days = rows.filter((r) => r.dim === "all" && r.day !== "total");
    const sent = payments.filter((p) => p.status === "sent");
    const failed = payments.filter((p) => p.status === "failed" || p.status === "declined");
    expect(sent.length).toBeGreaterThan(100);
    expect(days.reduce((n, r) => n + (r.collected ?? 0), 0)).toBe(sent.reduce((n, p) => n + p.amount, 0));
    expect(days.reduce((n, r) => n + (r.collected_count ?? 0), 0)).toBe(sent.length);
    expect(days.reduce((n, r) => n + (r.failed_count ?? 0), 0)).toBe(failed.length);
    // Months of history: more than a few distinct days with money collected.
    expect(days.filter((r) => (r.collected ?? 0) > 0).length).toBeGreaterThan(30);
  });

  it("has weeks of Ponsonby visits, each counted once in the rollups under its member's offering", async () => {
    const org = api.seed.organisations.harbour.organisation_id;
    const { data: visits } = await db()
      .entities.visit.query.primary({ organisation_id: org })
      .go({ pages: "all" });
    expect(visits.length).toBeGreaterThan(100);
    expect(visits.every((v) => v.gym_id === api.seed.gyms.ponsonby.gym_id && v.successful)).toBe(true);
    expect(visits.every((v) => v.offering_id)).toBe(true);
    const { data: rows } = await db()
      .entities.rollup.query.primary({ organisation_id: org, scope: "_organisation" })
      .go({ pages: "all" });
    const days = rows.filter((r) => r.dim === "all" && r.day !== "total");
    expect(days.reduce((n, r) => n + (r.visits ?? 0), 0)).toBe(visits.length);
    // The payments' counters are still there after the visits' recount.
    expect(days.reduce((n, r) => n + (r.collected_count ?? 0), 0)).toBeGreaterThan(100);
  });
});
