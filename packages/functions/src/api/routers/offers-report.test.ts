/**
 * Offers on the dashboard (issue 38; docs/offers.md "Reporting"), over real HTTP with the business
 * clock, the billing run and the simulated providers: a scripted month of two trials (one converts,
 * one is stopped), a promo code used twice, a visit pass sold and used on three days; the
 * dashboard's range counts them exactly, and the rollups' recount (the backfill) agrees.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../../tests/support/api";
import type { HttpClient } from "../../../../../tests/support/http";
import { type MoneyWorld, moneyWorld } from "../../../../../tests/support/money";
import {
  addPrice as addWorldPrice,
  adminOf,
  at,
  core,
  join as joinAs,
  memberOf,
  runJob,
} from "../../../../../tests/support/money-api";

const api = useTestApi();
let world: MoneyWorld;
let admin: HttpClient;

const cardMember = () =>
  memberOf(world, api.url, { prefix: "offers", name: (n) => `Offers Member ${n}`, card: "4242424242424242" });

let events = 0;
/** A door visit as the Kisi webhook records it, at noon in Auckland (NZST) on `day`. */
async function visit(userId: string, day: string, hour = 0) {
  const { recordVisit } = await import("@gym/core/access/visits");
  return recordVisit({
    organisation_id: world.organisation_id,
    event_id: `offers-event-${++events}-${Date.now()}`,
    gym_id: world.gym_id,
    user_id: userId,
    visited_at: new Date(`${day}T${String(12 + hour).padStart(2, "0")}:00:00+12:00`).toISOString(),
    successful: true,
  });
}

const offers = async (from: string, to: string) => {
  const res = await admin.get(`/api/cost-and-visit-breakdown?scope=organisation&from=${from}&to=${to}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.offers as Record<string, number>;
};

/** The same figures from the backfill's recount of every payment, membership and visit. */
async function recounted(from: string, to: string) {
  const { db } = await core();
  const { recount, rowsOf } = await import("@gym/core/rollup/backfill");
  const { OFFER_COUNTERS, ORGANISATION_ROLLUP } = await import("@gym/core/rollup/entity");
  const key = { organisation_id: world.organisation_id };
  const { everyPayment } = await import("@gym/core/payment/every-payment");
  const [payments, subs, visits] = await Promise.all([
    everyPayment(world.organisation_id).then((data) => ({ data })),
    db().entities.subscription.query.primary(key).go({ pages: "all" }),
    db().entities.visit.query.primary(key).go({ pages: "all" }),
  ]);
  const rows = [
    ...rowsOf(recount(payments.data as never, subs.data as never, to, visits.data as never)).values(),
  ].filter((r) => r.scope === ORGANISATION_ROLLUP && r.dim === "all" && r.day >= from && r.day <= to);
  return Object.fromEntries(OFFER_COUNTERS.map((c) => [c, rows.reduce((n, r) => n + (r[c] ?? 0), 0)]));
}

beforeAll(async () => {
  world = await moneyWorld({ name: "Offers Report Gyms" });
  admin = await adminOf(world, api.url, "offers-report-admin@example.nz");
});

describe("the dashboard's offers (docs/offers.md 'Reporting')", () => {
  it("counts 2 trials started, 1 converted, 1 stopped; a code used twice and $24.00 given away; a pass sold and 3 visits used", async () => {
    await at("2027-08-02");
    const trialPrice = await addWorldPrice(world, {
      amount: 2400,
      billing_frequency: "weekly",
      trial_days: 7,
    });
    const weekly = await addWorldPrice(world, { amount: 2400, billing_frequency: "weekly" });
    const converts = await cardMember();
    const stops = await cardMember();
    await joinAs(world, converts.client, trialPrice);
    const stopped = await joinAs(world, stops.client, trialPrice);

    const code = await admin.post("/api/promo-codes", {
      code: "-halfweek", // a code may start with "-": the exports write it as text, never a formula
      kind: "percent",
      percent_basis_points: 5_000,
      periods: 1,
    });
    expect(code.status, JSON.stringify(code.body)).toBe(201);
    for (let i = 0; i < 2; i++) {
      const member = await cardMember();
      const joined = await member.client.post("/api/subscriptions", {
        price_id: weekly,
        gym_id: world.gym_id,
        promo_code: "-HALFWEEK",
      });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      expect(joined.body.data.first_payment).toMatchObject({ amount: 1_200, discount: 1_200 });
    }

    const pass = await admin.post(`/api/offerings/${world.offering_id}/prices`, {
      amount: 15000,
      billing_frequency: "one_off",
      visits: 10,
      term_amount: 3,
      term_unit: "months",
    });
    expect(pass.status, JSON.stringify(pass.body)).toBe(201);
    const passMember = await cardMember();
    await joinAs(world, passMember.client, pass.body.data.id);
    await runJob("billing-run"); // the trials' $0.00, the codes' first half-price weeks, the pass

    await visit(passMember.user.user_id, "2027-08-03");
    await visit(passMember.user.user_id, "2027-08-03", 2); // the same day: no visit used
    await at("2027-08-04");
    const stop = await stops.client.post(`/api/me/subscriptions/${stopped.id}/stop-trial`, {});
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    await visit(passMember.user.user_id, "2027-08-04");
    await visit(passMember.user.user_id, "2027-08-06");

    await at("2027-08-09"); // the trials' end: one converts, the promo members' second week is full price
    await runJob("billing-run");

    const month = await offers("2027-08-01", "2027-08-31");
    expect(month).toEqual({
      trials_started: 2,
      trials_converted: 1,
      trials_stopped: 1,
      codes_used: 2,
      discount_given: 2_400,
      passes_sold: 1,
      pass_visits_used: 3,
    });
    expect(await recounted("2027-08-01", "2027-08-31")).toEqual(month);

    // A range counts what fell in it: from the 5th, only the conversion (on the trial's end) and
    // the visit of the 6th.
    const later = await offers("2027-08-05", "2027-08-31");
    expect(later).toEqual({
      trials_started: 0,
      trials_converted: 1,
      trials_stopped: 0,
      codes_used: 0,
      discount_given: 0,
      passes_sold: 0,
      pass_visits_used: 1,
    });
    expect(await recounted("2027-08-05", "2027-08-31")).toEqual(later);
  });

  it("writes them in the exports: members (trial, code, pass), payments (discount) and visits (pass visit)", async () => {
    const lines = async (path: string) => {
      const { call, file } = await admin.exportCsv(path, {});
      expect(call.status).toBe(303);
      return file!.text
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n");
    };
    const members = await lines("/api/members/export");
    expect(members[0]).toMatch(/,Trial last day,Promo code,Pass visits used$/);
    const offerCells = members.slice(1).map((l) => l.split(",").slice(-3).join(","));
    expect(offerCells.filter((c) => c === "8/08/2027,,")).toHaveLength(2);
    expect(offerCells.filter((c) => c === ",'-HALFWEEK,")).toHaveLength(2);
    expect(offerCells.filter((c) => c === ",,3 of 10")).toHaveLength(1);

    const payments = await lines("/api/payments/export");
    expect(payments[0]).toMatch(/,Discount \(NZD\)$/);
    const discounts = payments.slice(1).map((l) => l.split(",").at(-1));
    expect(discounts.filter((d) => d === "12.00")).toHaveLength(2);

    const visits = await lines("/api/visits/export");
    expect(visits[0]).toMatch(/,Successful,Pass visit$/);
    expect(visits.slice(1).map((l) => l.split(",").at(-1))).toEqual(
      expect.arrayContaining(["yes", "yes", "yes", "no"]),
    );
    expect(visits.slice(1).filter((l) => l.endsWith(",yes,yes"))).toHaveLength(3);
  });
});
