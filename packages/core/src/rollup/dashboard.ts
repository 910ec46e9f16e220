/**
 * The dashboard's answers, read from the rollups (docs/dashboard.md): each is one or two Queries
 * of a scope's rollup partition, whatever the number of members or payments.
 */

import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { addDays, aucklandDate, type CivilDate, toEpochDay } from "../billing/calendar";
import { businessNow } from "../clock";
import type { CostAndVisitBreakdown, DashboardStats, UserBreakdown } from "../contract/dashboard";
import { labelOf, paymentKindLabels } from "../contract/labels";
import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { listOfferingRecords } from "../offering/store";
import { titleCase } from "../text";
import { COST_BUCKET_COUNTERS, COST_BUCKETS, COST_DIM } from "./cost";
import { OFFER_COUNTERS, ORGANISATION_ROLLUP, type RollupCounter, sumShards, TOTAL_DAY } from "./entity";

type Row = { day: string; dim: string } & Partial<Record<RollupCounter, number>>;

/** Requests the dashboard reads made (the bench prints them). */
export const dashboardReads = { queries: 0 };

interface Scope {
  organisation_id: string;
  scope: "gym" | "organisation";
  gym_id: string | null;
  gyms: string[];
}

/** The rows a scope reads: one gym the actor reaches (404 otherwise) or the organisation (its admins). */
export function dashboardScope(actor: Actor, query: { scope?: string; gym_id?: string }): Scope {
  const organisationId = staffOrganisation(actor);
  const reachable = staffGymIds(actor);
  if (query.scope === "organisation") {
    authorize(actor.orgRole === "admin", "Only organisation admins see the whole organisation.");
    return { organisation_id: organisationId, scope: "organisation", gym_id: null, gyms: reachable };
  }
  const gymId = query.gym_id ?? (actor.gymId && reachable.includes(actor.gymId) ? actor.gymId : reachable[0]);
  if (!gymId || !reachable.includes(gymId)) throw new NotFoundError("gym");
  return { organisation_id: organisationId, scope: "gym", gym_id: gymId, gyms: [gymId] };
}

const partition = (s: Scope) => s.gym_id ?? ORGANISATION_ROLLUP;

/** Every row of the scope with `day` in [from, to] (`total` sorts after every date), its shards summed. */
async function rows(s: Scope, from: string, to: string): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await db()
      .entities.rollup.query.primary({ organisation_id: s.organisation_id, scope: partition(s) })
      .between({ day: from }, { day: `${to}~` })
      .go({ cursor, limit: 1000 });
    dashboardReads.queries += 1;
    out.push(...(page.data as Row[]));
    cursor = page.cursor;
  } while (cursor);
  return sumShards(out);
}

const value = (r: Row | undefined, c: RollupCounter) => r?.[c] ?? 0;
function sum(list: Row[], c: RollupCounter, from: string, to: string, dim = "all") {
  return list
    .filter((r) => r.dim === dim && r.day >= from && r.day <= to)
    .reduce((n, r) => n + value(r, c), 0);
}

/** Monday of a date's week. */
export function weekOf(day: CivilDate): CivilDate {
  const weekday = (toEpochDay(day) + 3) % 7; // 1970-01-01 was a Thursday; 0 = Monday
  return addDays(day, -weekday);
}
const monthStart = (day: CivilDate) => `${day.slice(0, 7)}-01`;

export async function dashboardStats(actor: Actor, query: { scope?: string; gym_id?: string }) {
  const s = dashboardScope(actor, query);
  const today = aucklandDate(await businessNow());
  const thisMonth = monthStart(today);
  const lastMonthEnd = addDays(thisMonth, -1);
  const lastMonth = monthStart(lastMonthEnd);
  const week = weekOf(today);
  const lastWeek = addDays(week, -7);
  // One Query: last month, this month, days ahead (cancellations taking effect later) and the totals.
  const list = await rows(s, lastMonth, TOTAL_DAY);
  const total = list.find((r) => r.day === TOTAL_DAY && r.dim === "all");
  const members = (from: string, to: string) =>
    sum(list, "joined", from, to) - sum(list, "cancelled", from, to);
  const future = "9999-12-31";
  const activeNow = value(total, "joined") - value(total, "cancelled") - members(addDays(today, 1), future);
  const activeLastMonth = activeNow - members(thisMonth, today);
  const owingNow = value(total, "owing");
  const owingCountNow = value(total, "owing_count");
  const pair = (current: number, previous: number) => ({ current, previous });
  return {
    scope: s.scope,
    gym_id: s.gym_id,
    today,
    active_members: pair(activeNow, activeLastMonth),
    joined_this_week: pair(
      sum(list, "joined", week, today),
      sum(list, "joined", lastWeek, addDays(week, -1)),
    ),
    cancelled_this_week: pair(
      sum(list, "cancelled", week, today),
      sum(list, "cancelled", lastWeek, addDays(week, -1)),
    ),
    joined_this_month: pair(
      sum(list, "joined", thisMonth, today),
      sum(list, "joined", lastMonth, lastMonthEnd),
    ),
    cancelled_this_month: pair(
      sum(list, "cancelled", thisMonth, today),
      sum(list, "cancelled", lastMonth, lastMonthEnd),
    ),
    revenue_collected: pair(
      sum(list, "collected", thisMonth, today),
      sum(list, "collected", lastMonth, lastMonthEnd),
    ),
    // What falls due this month (claimed payments count on their due date).
    revenue_expected: pair(
      sum(list, "expected", thisMonth, addDays(monthStart(addDays(thisMonth, 31)), -1)),
      sum(list, "expected", lastMonth, lastMonthEnd),
    ),
    failed_count: pair(
      sum(list, "failed_count", thisMonth, today),
      sum(list, "failed_count", lastMonth, lastMonthEnd),
    ),
    failed_amount: pair(sum(list, "failed", thisMonth, today), sum(list, "failed", lastMonth, lastMonthEnd)),
    owing_count: pair(owingCountNow, owingCountNow - sum(list, "owing_count", thisMonth, future)),
    owing_amount: pair(owingNow, owingNow - sum(list, "owing", thisMonth, future)),
    visits_this_week: pair(
      sum(list, "visits", week, today),
      sum(list, "visits", lastWeek, addDays(week, -1)),
    ),
    empty: !total && !list.length,
  } satisfies DashboardStats;
}

const FREQUENCY_LABELS: Record<string, string> = {
  weekly: "Weekly",
  fortnightly: "Fortnightly",
  monthly: "Monthly",
  yearly: "Yearly",
  one_off: "Paid in full",
};

export async function userBreakdown(actor: Actor, query: { scope?: string; gym_id?: string }) {
  const s = dashboardScope(actor, query);
  const today = aucklandDate(await businessNow());
  const [list, offerings] = await Promise.all([
    rows(s, addDays(today, 1), TOTAL_DAY),
    listOfferingRecords(s.organisation_id),
  ]);
  dashboardReads.queries += 1;
  const totals = list.filter((r) => r.day === TOTAL_DAY);
  const ahead = list.filter((r) => r.day !== TOTAL_DAY);
  const activeOf = (dim: string) => {
    const t = totals.find((r) => r.dim === dim);
    const later = ahead.filter((r) => r.dim === dim);
    return (
      value(t, "joined") -
      value(t, "cancelled") -
      later.reduce((n, r) => n + value(r, "joined") - value(r, "cancelled"), 0)
    );
  };
  const byPrefix = (prefix: string, label: (key: string) => string) =>
    totals
      .filter((r) => r.dim.startsWith(prefix))
      .map((r) => {
        const key = r.dim.slice(prefix.length);
        return { key, label: label(key), count: activeOf(r.dim) };
      })
      .filter((b) => b.count !== 0)
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  const names = new Map(offerings.map((o) => [o.offering_id, o.name]));
  const all = totals.find((r) => r.dim === "all");
  const aheadAll = ahead.filter((r) => r.dim === "all");
  const cancelling = aheadAll.reduce((n, r) => n + value(r, "cancelled"), 0);
  // Memberships starting after today (their join sits on a future day row): not yet started.
  const upcoming = aheadAll.reduce((n, r) => n + value(r, "joined"), 0);
  // Pauses covering today: the running total minus the pauses starting (and ending) after today.
  const paused = value(all, "paused") - aheadAll.reduce((n, r) => n + value(r, "paused"), 0);
  const answer: UserBreakdown = {
    scope: s.scope,
    gym_id: s.gym_id,
    today,
    by_state: [
      { key: "active", label: "Active", count: activeOf("all") },
      { key: "cancelling", label: "Cancelled, not yet in effect", count: cancelling },
      { key: "owing", label: "Owing (in grace)", count: value(all, "owing_count") },
      { key: "paused", label: "Paused now", count: paused },
      { key: "upcoming", label: "Not started yet", count: upcoming },
    ],
    by_offering: byPrefix("o:", (id) => names.get(id) ?? "Removed offering"),
    by_frequency: byPrefix("f:", (f) => FREQUENCY_LABELS[f] ?? f),
    by_payment_type: byPrefix("t:", (t) => labelOf(paymentKindLabels, t)),
  };
  return answer;
}

export const CHURN_RISK_LIMIT = 20;

export async function costAndVisitBreakdown(
  actor: Actor,
  query: { scope?: string; gym_id?: string; from?: string; to?: string },
) {
  const s = dashboardScope(actor, query);
  const today = aucklandDate(await businessNow());
  const to = query.to ?? today;
  const from = query.from ?? monthStart(to);
  if (from > to) {
    const { ValidationError } = await import("../errors");
    throw ValidationError.field("from", "The first day must be on or before the last day.");
  }
  // One Query from the first month's histogram row (`YYYY-MM` sorts before its days) to `to`, one
  // for the offering names, one for the top of the last month's churn-risk partition.
  const firstMonth = from.slice(0, 7);
  const lastMonth = to.slice(0, 7);
  const [list, offerings, churn] = await Promise.all([
    rows(s, firstMonth, to),
    listOfferingRecords(s.organisation_id),
    db()
      .entities.churnRisk.query.primary({
        organisation_id: s.organisation_id,
        scope: partition(s),
        month: lastMonth,
      })
      .go({ limit: CHURN_RISK_LIMIT }),
  ]);
  dashboardReads.queries += 2;
  const names = new Map(offerings.map((o) => [o.offering_id, o.name]));
  const offeringIds = [...new Set(list.filter((r) => r.dim.startsWith("o:")).map((r) => r.dim.slice(2)))];
  const weeks: CostAndVisitBreakdown["by_week"] = [];
  for (let w = weekOf(from); w <= to; w = addDays(w, 7)) {
    const a = w < from ? from : w;
    const b = addDays(w, 6) > to ? to : addDays(w, 6);
    weeks.push({
      week: w,
      collected: sum(list, "collected", a, b),
      expected: sum(list, "expected", a, b),
      joined: sum(list, "joined", a, b),
      cancelled: sum(list, "cancelled", a, b),
    });
  }
  const visitsByDay: CostAndVisitBreakdown["visits_by_day"] = [];
  for (let d = from; d <= to && visitsByDay.length < 400; d = addDays(d, 1))
    visitsByDay.push({ day: d, visits: sum(list, "visits", d, d) });
  // Member-months per bucket, summed over the months the range touches.
  const histograms = list.filter((r) => r.dim === COST_DIM && r.day >= firstMonth && r.day <= lastMonth);
  const cost_per_visit = COST_BUCKETS.map((b, i) => ({
    key: b.key,
    label: b.label,
    count: histograms.reduce((n, r) => n + value(r, COST_BUCKET_COUNTERS[i]), 0),
  }));
  const answer: CostAndVisitBreakdown = {
    scope: s.scope,
    gym_id: s.gym_id,
    today,
    from,
    to,
    by_offering: offeringIds
      .map((id) => ({
        offering_id: id,
        name: names.get(id) ?? "Removed offering",
        revenue: sum(list, "collected", from, to, `o:${id}`),
        visits: sum(list, "visits", from, to, `o:${id}`),
      }))
      .sort((a, b) => b.revenue - a.revenue),
    by_week: weeks,
    visits_by_day: visitsByDay,
    cost_per_visit,
    offers: Object.fromEntries(
      OFFER_COUNTERS.map((c) => [c, sum(list, c, from, to)]),
    ) as CostAndVisitBreakdown["offers"],
    churn_risk: churn.data.map((m) => ({
      user_id: m.user_id,
      name: titleCase(m.member_name ?? ""),
      gym_id: m.gym_id,
      paid: m.paid,
    })),
  };
  return answer;
}
