/**
 * The member page's charts: visits per week, the membership periods, and what each visit cost
 * (the price as cents per week over the visits that week). Weeks run Monday to Sunday in Auckland.
 */
import type { Actor } from "../auth/actor";
import {
  addDays,
  aucklandDate,
  type CivilDate,
  isCivilDate,
  startOfAucklandDay,
  toEpochDay,
} from "../billing/calendar";
import type { BillingFrequency } from "../billing/frequency";
import { businessNow } from "../clock";
import {
  memberWeeksQuery,
  type SubscriptionPeriod,
  type WeeklyCostPerVisit,
  type WeeklyVisits,
} from "../contract/access";
import { db } from "../db/service";
import { memberInReach } from "../member/service";
import { memberSubscriptions, type SubscriptionRecord } from "../subscription/store";
import { parse } from "../validation";

const perYear: Record<Exclude<BillingFrequency, "one_off">, number> = {
  daily: 365,
  weekly: 52,
  fortnightly: 26,
  monthly: 12,
  bi_monthly: 6,
  quarterly: 4,
  twice_yearly: 2,
  yearly: 1,
};

/** A subscription's price as whole cents per week (a PIF's amount spread over its weeks). */
export function weeklyCost(
  sub: Pick<SubscriptionRecord, "amount" | "billing_frequency" | "start_date" | "pif_ends_at">,
) {
  if (sub.billing_frequency === "one_off") {
    const end = sub.pif_ends_at ? aucklandDate(new Date(sub.pif_ends_at)) : null;
    const days = end ? toEpochDay(end) - toEpochDay(sub.start_date as CivilDate) : 0;
    return days > 0 ? Math.round((sub.amount * 7) / days) : 0;
  }
  return Math.round((sub.amount * perYear[sub.billing_frequency]) / 52);
}

/** Monday of the Auckland week holding `day`. */
export function weekStart(day: CivilDate): CivilDate {
  // Epoch day 0 (1970-01-01) was a Thursday: Monday is 3 days before.
  const offset = (((toEpochDay(day) + 3) % 7) + 7) % 7;
  return addDays(day, -offset);
}

async function weeksOf(actor: Actor, userId: string, query: unknown) {
  const { organisationId } = await memberInReach(actor, userId);
  const { weeks = 12 } = parse(memberWeeksQuery, query);
  const thisWeek = weekStart(aucklandDate(await businessNow()));
  const starts = Array.from({ length: weeks }, (_, i) => addDays(thisWeek, (i - weeks + 1) * 7));
  return { organisationId, starts };
}

async function visitCounts(organisationId: string, userId: string, starts: CivilDate[]) {
  const from = startOfAucklandDay(starts[0]).toISOString();
  const { data } = await db()
    .entities.visit.query.byMember({ organisation_id: organisationId, user_id: userId })
    .gte({ visited_at: from })
    .go({ pages: "all" });
  const counts = new Map(starts.map((s) => [s, 0]));
  for (const v of data) {
    if (!v.successful) continue;
    const week = weekStart(aucklandDate(new Date(v.visited_at)));
    if (counts.has(week)) counts.set(week, (counts.get(week) ?? 0) + 1);
  }
  return counts;
}

/** `GET /api/members/{id}/weekly-visits`. */
export async function memberWeeklyVisits(
  actor: Actor,
  userId: string,
  query: unknown,
): Promise<WeeklyVisits[]> {
  const { organisationId, starts } = await weeksOf(actor, userId, query);
  const counts = await visitCounts(organisationId, userId, starts);
  return starts.map((week_start) => ({ week_start, visits: counts.get(week_start) ?? 0 }));
}

function periodOf(sub: SubscriptionRecord): SubscriptionPeriod {
  const ends =
    sub.cancellation_effective_at ?? (sub.billing_frequency === "one_off" ? sub.pif_ends_at : null);
  return {
    subscription_id: sub.subscription_id,
    label: `${sub.offering_name} · ${sub.price_label}`,
    start_date: sub.start_date,
    // The end instant is the first moment outside: the last day inside is the Auckland day before it.
    end_date: ends
      ? isCivilDate(ends)
        ? addDays(ends, -1)
        : aucklandDate(new Date(Date.parse(ends) - 1))
      : null,
    amount: sub.amount,
    billing_frequency: sub.billing_frequency,
    weekly_cost: weeklyCost(sub),
  };
}

/** `GET /api/members/{id}/subscription-periods`: every membership, oldest first. */
export async function memberSubscriptionPeriods(actor: Actor, userId: string): Promise<SubscriptionPeriod[]> {
  const { organisationId } = await memberInReach(actor, userId);
  const subs = await memberSubscriptions(organisationId, userId);
  return subs.map(periodOf).sort((a, b) => (a.start_date < b.start_date ? -1 : 1));
}

/** `GET /api/members/{id}/weekly-cost-per-visit`. */
export async function memberWeeklyCostPerVisit(
  actor: Actor,
  userId: string,
  query: unknown,
): Promise<WeeklyCostPerVisit[]> {
  const { organisationId, starts } = await weeksOf(actor, userId, query);
  const [counts, subs] = await Promise.all([
    visitCounts(organisationId, userId, starts),
    memberSubscriptions(organisationId, userId),
  ]);
  const periods = subs.filter((s) => !s.upcoming_state || s.upcoming_state !== "failed").map(periodOf);
  return starts.map((week_start) => {
    const week_end = addDays(week_start, 6);
    const cost = periods
      .filter((p) => p.start_date <= week_end && (p.end_date === null || p.end_date >= week_start))
      .reduce((sum, p) => sum + p.weekly_cost, 0);
    const visits = counts.get(week_start) ?? 0;
    return { week_start, visits, cost, cost_per_visit: visits ? Math.round(cost / visits) : null };
  });
}
