/**
 * The rollups agree exactly with a direct count of the payments and memberships they summarise,
 * through duplicate webhooks, a replayed settlement, a billing run and a cancellation job run twice.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import {
  addCard,
  addMember,
  addOffering,
  type MoneyWorld,
  moneyWorld,
  subscribeMember,
  worldAdmin,
} from "../../../../tests/support/money";
import { recordVisit, type VisitRecord } from "../access/visits";
import type { Actor } from "../auth/actor";
import { addDays, aucklandDate, startOfAucklandDay } from "../billing/calendar";
import { setBusinessClock } from "../clock";
import { db } from "../db/service";
import { cancelForNonPayment } from "../payment/dunning/cancel-for-non-payment";
import { everyPayment } from "../payment/every-payment";
import { billingRun } from "../payment/jobs/billing-run";
import { applyOutcome } from "../payment/settle";
import type { PaymentRecord } from "../payment/store";
import { resetSimulatedProviders, setSimulatedChaos, settleSimulatedNow } from "../simulators/simulation";
import { cancelSubscription } from "../subscription/operations/cancel";
import { schedulePriceChange } from "../subscription/operations/change-price";
import { pauseSubscription, removePause } from "../subscription/operations/pause";
import { findSubscription, type SubscriptionRecord } from "../subscription/store";
import { churnItemsOf, recount, rowsOf } from "./backfill";
import { costAndVisitBreakdown, dashboardStats, userBreakdown } from "./dashboard";
import { ORGANISATION_ROLLUP, rollupCounters, SCHEDULED_ROLLUP, sumShards } from "./entity";
import { memberMonthsOf, prepareRollup, rollupItems, visitChange, writeCounted } from "./writes";

useTestApi();
/** 09:00 on Tuesday 1 December 2026 in Auckland. */
const START = new Date("2026-11-30T20:00:00.000Z");
const TODAY = aucklandDate(START);

let world: MoneyWorld;
const admin = (): Actor => worldAdmin(world);

function allPayments(): Promise<PaymentRecord[]> {
  return everyPayment(world.organisation_id);
}
async function allSubscriptions(): Promise<SubscriptionRecord[]> {
  const { data } = await db()
    .entities.subscription.query.primary({ organisation_id: world.organisation_id })
    .go({ pages: "all" });
  return data as SubscriptionRecord[];
}
/** A counter row as the dashboard reads it: its shards summed (null when no shard has it). */
async function rollupRow(scope: string, day: string, dim = "all") {
  const { data } = await db()
    .entities.rollup.query.primary({ organisation_id: world.organisation_id, scope })
    .between({ day }, { day: `${day}~` })
    .go({ pages: "all" });
  return sumShards(data).find((r) => r.day === day && r.dim === dim) ?? null;
}

const sum = (list: PaymentRecord[], f: (p: PaymentRecord) => number) => list.reduce((n, p) => n + f(p), 0);

beforeAll(async () => {
  world = await moneyWorld({ name: "Rollup Test" });
  resetSimulatedProviders();
  await setBusinessClock(START);
});

describe("rollups", () => {
  const subs: SubscriptionRecord[] = [];

  it("count joins, what fell due, what was collected and what failed exactly once, matching a direct count", async () => {
    for (const [n, card] of [
      "4242424242424242",
      "4242424242424242",
      "4242424242424242",
      "4000000000000341",
    ].entries()) {
      const user = await addMember(world, `Rolly ${n}`);
      await addCard(world, user, card);
      subs.push((await subscribeMember(world, user)).subscription);
    }
    setSimulatedChaos({ duplicateWebhooks: 1, reorderWebhooks: true, seed: 5 });
    // The billing run twice: the second finds nothing due and counts nothing.
    await billingRun(START);
    await billingRun(START);
    await settleSimulatedNow();
    const payments = await allPayments();
    const sent = payments.filter((p) => p.status === "sent");
    // A replayed webhook (the provider says succeeded again) changes nothing.
    for (const p of sent)
      expect(await applyOutcome(p, { state: "succeeded", providerId: p.stripe_id ?? "pi_x" } as never)).toBe(
        "unchanged",
      );
    const failed = payments.filter((p) => p.status === "failed" || p.status === "declined");
    const claimed = payments.filter(
      (p) => p.status !== "upcoming" && p.status !== "cancelled" && !p.is_retry,
    );
    expect(sent).toHaveLength(3);
    expect(failed).toHaveLength(1);
    const direct = await allSubscriptions();
    const owing = direct.reduce((n, s) => n + (s.balance_owing ?? 0), 0);
    expect(owing).toBe(6000);

    for (const scope of [world.gym_id, ORGANISATION_ROLLUP]) {
      const day = await rollupRow(scope, TODAY);
      expect(day?.collected).toBe(sum(sent, (p) => p.amount));
      expect(day?.collected_count).toBe(sent.length);
      expect(day?.failed).toBe(sum(failed, (p) => p.amount));
      expect(day?.failed_count).toBe(1);
      expect(day?.expected).toBe(sum(claimed, (p) => p.amount));
      expect(day?.expected_count).toBe(claimed.length);
      expect(day?.joined).toBe(4);
      const total = await rollupRow(scope, "total");
      expect(total?.owing).toBe(owing);
      expect(total?.owing_count).toBe(1);
    }
    const byOffering = await rollupRow(world.gym_id, TODAY, `o:${world.offering_id}`);
    expect(byOffering?.collected).toBe(18_000);

    const stats = await dashboardStats(admin(), {});
    expect(stats.active_members.current).toBe(4);
    expect(stats.revenue_collected.current).toBe(18_000);
    expect(stats.revenue_expected.current).toBe(24_000);
    expect(stats.failed_count.current).toBe(1);
    expect(stats.owing_amount.current).toBe(6000);
    expect(stats.joined_this_month.current).toBe(4);
    expect(stats.empty).toBe(false);
  });

  it("a cancellation for non-payment run twice counts once, and active members drop by one", async () => {
    const failing = subs[3];
    const sub = await findSubscription(world.organisation_id, failing.subscription_id);
    if (!sub) throw new Error("no subscription");
    expect(await cancelForNonPayment(sub, START)).toBe(true);
    expect(await cancelForNonPayment(sub, START)).toBe(false);
    const day = await rollupRow(world.gym_id, TODAY);
    expect(day?.cancelled).toBe(1);
    const stats = await dashboardStats(admin(), { scope: "organisation" });
    expect(stats.active_members.current).toBe(3);
    expect(stats.cancelled_this_month.current).toBe(1);
    const breakdown = await userBreakdown(admin(), {});
    expect(breakdown.by_state.find((b) => b.key === "active")?.count).toBe(3);
    expect(breakdown.by_offering).toEqual([{ key: world.offering_id, label: "24/7 Membership", count: 3 }]);
    expect(breakdown.by_frequency).toEqual([{ key: "monthly", label: "Monthly", count: 3 }]);
    expect(breakdown.by_payment_type).toEqual([{ key: "stripe_card", label: "Card", count: 3 }]);
  });

  it("a visit adds to the day's visits and the member's month; paying members who never came are the churn risk", async () => {
    const visitor = subs[0];
    const visit = {
      organisation_id: world.organisation_id,
      event_id: "evt_rollup_1",
      gym_id: world.gym_id,
      user_id: visitor.user_id,
      member_name: visitor.member_name,
      visited_at: START.toISOString(),
      successful: true,
    };
    expect(await recordVisit(visit)).toBe("recorded");
    // The webhook delivered again: nothing moves.
    expect(await recordVisit(visit)).toBe("duplicate");
    expect((await rollupRow(world.gym_id, TODAY))?.visits).toBe(1);
    const stats = await dashboardStats(admin(), {});
    expect(stats.visits_this_week.current).toBe(1);
    const range = await costAndVisitBreakdown(admin(), { from: TODAY, to: TODAY });
    expect(range.by_offering).toEqual([
      { offering_id: world.offering_id, name: "24/7 Membership", revenue: 18_000, visits: 1 },
    ]);
    expect(range.visits_by_day).toEqual([{ day: TODAY, visits: 1 }]);
    expect(range.cost_per_visit.find((b) => b.key === "no_visits")?.count).toBe(2);
    expect(range.cost_per_visit.find((b) => b.key === "50_plus")?.count).toBe(1);
    expect(range.churn_risk.map((m) => m.user_id).sort()).toEqual([subs[1].user_id, subs[2].user_id].sort());
    expect(range.churn_risk.every((m) => m.paid === 6000)).toBe(true);
    expect(range.churn_risk.every((m) => m.name.startsWith("Rolly"))).toBe(true);
  });

  it("a second visit moves the member's bucket and a first visit takes a member off the churn list, in both scopes", async () => {
    const base = {
      organisation_id: world.organisation_id,
      gym_id: world.gym_id,
      visited_at: START.toISOString(),
      successful: true,
    };
    expect(await recordVisit({ ...base, event_id: "evt_rollup_2", user_id: subs[0].user_id })).toBe(
      "recorded",
    );
    expect(await recordVisit({ ...base, event_id: "evt_rollup_3", user_id: subs[1].user_id })).toBe(
      "recorded",
    );
    for (const scope of ["gym", "organisation"]) {
      const range = await costAndVisitBreakdown(admin(), { scope, from: TODAY, to: TODAY });
      const count = (key: string) => range.cost_per_visit.find((b) => b.key === key)?.count;
      // subs[0]: $60 over 2 visits = $30 a visit; subs[1]: $60 over 1 visit; subs[2]: never came.
      expect(count("no_visits"), scope).toBe(1);
      expect(count("20_to_50"), scope).toBe(1);
      expect(count("50_plus"), scope).toBe(1);
      expect(
        range.churn_risk.map((m) => m.user_id),
        scope,
      ).toEqual([subs[2].user_id]);
    }
  });

  it("a change counted against a stale read of the member's month is refused, not counted twice", async () => {
    const change = visitChange({
      organisation_id: world.organisation_id,
      gym_id: world.gym_id,
      offering_id: world.offering_id,
      user_id: subs[2].user_id,
      day: TODAY,
    });
    const stale = await prepareRollup(change);
    // Someone else's change to the same month lands first (applied exactly once).
    const first = await db()
      .transaction.write(({ rollup, memberMonth, churnRisk }) =>
        rollupItems({ rollup, memberMonth, churnRisk }, stale),
      )
      .go();
    expect(first.canceled).toBe(false);
    const replay = await db()
      .transaction.write(({ rollup, memberMonth, churnRisk }) =>
        rollupItems({ rollup, memberMonth, churnRisk }, stale),
      )
      .go();
    expect(replay.canceled).toBe(true);
    const range = await costAndVisitBreakdown(admin(), { from: TODAY, to: TODAY });
    expect(range.cost_per_visit.find((b) => b.key === "no_visits")?.count).toBe(0);
    expect(range.cost_per_visit.find((b) => b.key === "50_plus")?.count).toBe(2);
    expect(range.churn_risk).toEqual([]);
    // Undo it (no visit record backs it), re-reading the row as every live writer does.
    await writeCounted(
      [{ ...change, delta: { visits: -1 }, member: { user_id: subs[2].user_id, visits: -1 } }],
      (items) =>
        db()
          .transaction.write(({ rollup, memberMonth, churnRisk }) =>
            items({ rollup, memberMonth, churnRisk }),
          )
          .go(),
    );
    expect((await costAndVisitBreakdown(admin(), { from: TODAY, to: TODAY })).churn_risk).toHaveLength(1);
  });

  it("two visits by one member at the same moment both count: the one that loses the race reads the month again", async () => {
    const base = {
      organisation_id: world.organisation_id,
      gym_id: world.gym_id,
      user_id: subs[0].user_id,
      visited_at: START.toISOString(),
      successful: true,
    };
    expect(
      await Promise.all([
        recordVisit({ ...base, event_id: "evt_rollup_race_a" }),
        recordVisit({ ...base, event_id: "evt_rollup_race_b" }),
      ]),
    ).toEqual(["recorded", "recorded"]);
    const { data: month } = await db()
      .entities.memberMonth.get({
        organisation_id: world.organisation_id,
        gym_id: world.gym_id,
        month: TODAY.slice(0, 7),
        user_id: subs[0].user_id,
      })
      .go();
    expect(month).toMatchObject({ paid: 6000, visits: 4 });
    const range = await costAndVisitBreakdown(admin(), { from: TODAY, to: TODAY });
    // $60 over 4 visits = $15 a visit.
    expect(range.cost_per_visit.find((b) => b.key === "10_to_20")?.count).toBe(1);
    expect(range.cost_per_visit.find((b) => b.key === "20_to_50")?.count).toBe(0);
    expect(range.visits_by_day).toEqual([{ day: TODAY, visits: 5 }]);
  });

  it("a price change to another offering's price moves the member between the offerings' counts on the day it takes effect", async () => {
    const { offering_id: other, price_id: cheaper } = await addOffering(world.organisation_id, {
      name: "Off-peak",
      amount: 4500,
    });
    const [scheduled] = await schedulePriceChange(admin(), {
      subscription_ids: [subs[0].subscription_id],
      price_id: cheaper,
    });
    const takesEffect = scheduled.transition_to_date as string;
    expect(takesEffect > TODAY).toBe(true);
    const byOffering = async () => (await userBreakdown(admin(), {})).by_offering;
    // Until the day it takes effect the member still counts under their offering.
    expect(await byOffering()).toEqual([{ key: world.offering_id, label: "24/7 Membership", count: 3 }]);
    await setBusinessClock(startOfAucklandDay(takesEffect));
    try {
      expect(await byOffering()).toEqual([
        { key: world.offering_id, label: "24/7 Membership", count: 2 },
        { key: other, label: "Off-peak", count: 1 },
      ]);
      const breakdown = await userBreakdown(admin(), { scope: "organisation" });
      expect(breakdown.by_state.find((b) => b.key === "active")?.count).toBe(3);
      expect(breakdown.by_frequency).toEqual([{ key: "monthly", label: "Monthly", count: 3 }]);
      // Moving offering is neither a join nor a cancellation.
      const stats = await dashboardStats(admin(), {});
      expect(stats.active_members.current).toBe(3);
      expect(stats.joined_this_month.current + stats.joined_this_month.previous).toBe(4);
    } finally {
      await setBusinessClock(START);
    }
  });

  it("members by state count paused members while their pause covers the day, and memberships not yet started as upcoming", async () => {
    for (const sub of [subs[1], subs[2]])
      await db()
        .entities.subscription.patch({
          organisation_id: world.organisation_id,
          subscription_id: sub.subscription_id,
        })
        .set({ pause_days_remaining: 60 })
        .go();
    const state = async (key: string) =>
      (await userBreakdown(admin(), {})).by_state.find((b) => b.key === key)?.count;
    const pause = { pause_start_at: addDays(TODAY, 2), pause_end_at: addDays(TODAY, 9) };
    await pauseSubscription(admin(), subs[1].subscription_id, pause);
    // A second pause, removed before it starts: it counts nothing.
    await pauseSubscription(admin(), subs[2].subscription_id, pause);
    await removePause(admin(), subs[2].subscription_id);
    const joiner = await addMember(world, "Rolly Later");
    await addCard(world, joiner, "4242424242424242");
    await subscribeMember(world, joiner, { start_date: addDays(TODAY, 5) });
    // One more who cancels before starting: never a member, so neither upcoming nor active nor cancelled.
    const quitter = await addMember(world, "Rolly Never");
    await addCard(world, quitter, "4242424242424242");
    const never = (await subscribeMember(world, quitter, { start_date: addDays(TODAY, 4) })).subscription;
    expect(await state("upcoming")).toBe(2);
    await cancelSubscription(admin(), never.subscription_id, { immediate: true });
    expect((await dashboardStats(admin(), {})).cancelled_this_month.current).toBe(1);
    expect(await state("paused")).toBe(0);
    expect(await state("upcoming")).toBe(1);
    expect(await state("active")).toBe(3);
    try {
      await setBusinessClock(startOfAucklandDay(addDays(TODAY, 2)));
      expect(await state("paused")).toBe(1);
      expect((await userBreakdown(admin(), { scope: "organisation" })).by_state).toContainEqual({
        key: "paused",
        label: "Paused now",
        count: 1,
      });
      await setBusinessClock(startOfAucklandDay(addDays(TODAY, 5)));
      expect(await state("upcoming")).toBe(0);
      expect(await state("active")).toBe(4);
      await setBusinessClock(startOfAucklandDay(addDays(TODAY, 9)));
      expect(await state("paused")).toBe(0);
    } finally {
      await setBusinessClock(START);
    }
  });

  it("the backfill's recount from payments, memberships and visits agrees exactly with the live counters, histograms, member months and churn list", async () => {
    const payments = await allPayments();
    const subscriptions = await allSubscriptions();
    const { data: visits } = await db()
      .entities.visit.query.primary({ organisation_id: world.organisation_id })
      .go({ pages: "all" });
    expect(visits.filter((v) => v.successful)).toHaveLength(5);
    const changes = recount(payments, subscriptions, TODAY, visits as VisitRecord[]);
    const expected = rowsOf(changes);
    const live = new Map<string, Record<string, unknown>>();
    // The scheduled-payment rows too (the expected-payments page's days ahead: rollup/money.ts).
    for (const scope of [world.gym_id, ORGANISATION_ROLLUP, SCHEDULED_ROLLUP]) {
      const { data } = await db()
        .entities.rollup.query.primary({ organisation_id: world.organisation_id, scope })
        .go({ pages: "all" });
      for (const row of sumShards(data)) live.set(`${scope}|${row.day}|${row.dim}`, row);
    }
    const pick = (row: Record<string, unknown> | undefined) =>
      Object.fromEntries(rollupCounters.map((c) => [c, (row?.[c] as number | undefined) ?? 0]));
    expect(expected.size).toBeGreaterThan(4);
    expect(expected.get(`${world.gym_id}|${TODAY.slice(0, 7)}|cpv`)).toMatchObject({
      cpv_no_visits: 1,
      cpv_10_to_20: 1,
      cpv_50_plus: 1,
    });
    for (const id of new Set([...expected.keys(), ...live.keys()])) {
      expect(pick(live.get(id) as never), id).toEqual(pick(expected.get(id) as never));
    }
    const month = TODAY.slice(0, 7);
    const { data: liveMonths } = await db()
      .entities.memberMonth.query.primary({
        organisation_id: world.organisation_id,
        gym_id: world.gym_id,
        month,
      })
      .go();
    const counts = (list: { user_id: string; paid?: number; visits?: number }[]) =>
      list
        .map((m) => ({ user_id: m.user_id, paid: m.paid ?? 0, visits: m.visits ?? 0 }))
        .sort((a, b) => a.user_id.localeCompare(b.user_id));
    expect(counts(liveMonths)).toEqual(counts([...memberMonthsOf(changes).values()]));
    for (const scope of [world.gym_id, ORGANISATION_ROLLUP]) {
      const { data: churn } = await db()
        .entities.churnRisk.query.primary({ organisation_id: world.organisation_id, scope, month })
        .go();
      const fromRecount = churnItemsOf(changes).filter((c) => c.scope === scope);
      expect(
        churn.map((c) => [c.user_id, c.paid]),
        scope,
      ).toEqual(fromRecount.map((c) => [c.user_id, c.paid]));
    }
  });
});
