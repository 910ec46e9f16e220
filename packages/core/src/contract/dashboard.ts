/** The dashboard's calls (`/api/stats`, `/api/user-breakdown`, `/api/cost-and-visit-breakdown`). */
import { z } from "zod";
import { civilDateField } from "./fields";

const civilDate = civilDateField();

/** Which rows a call reads: one gym (default the current gym) or the whole organisation (admins). */
export const dashboardScopeQuery = z.object({
  scope: z.enum(["gym", "organisation"]).optional().meta({ description: "Default `gym`" }),
  gym_id: z.string().min(1).max(64).optional().meta({ description: "Default the current gym" }),
});

export const dashboardRangeQuery = dashboardScopeQuery.extend({
  from: civilDate.optional().meta({ description: "First day (default the first of this month)" }),
  to: civilDate.optional().meta({ description: "Last day (default today)" }),
});

/** A number beside the same number for the period before. */
export const compared = z.object({ current: z.number().int(), previous: z.number().int() });

const answerScope = {
  scope: z.enum(["gym", "organisation"]),
  gym_id: z.string().nullable(),
  today: z.string(),
};

export const dashboardStats = z
  .object({
    ...answerScope,
    /** Members whose membership has begun counting and not ended (joined − cancellations in effect); previous: at the end of last month. */
    active_members: compared,
    joined_this_week: compared,
    cancelled_this_week: compared,
    joined_this_month: compared,
    cancelled_this_month: compared,
    /** Cents collected this month; previous: last month. */
    revenue_collected: compared,
    /** Cents that fell due this month; previous: last month. */
    revenue_expected: compared,
    failed_count: compared,
    failed_amount: compared,
    /** Members owing now (previous: at the end of last month), and the cents they owe. */
    owing_count: compared,
    owing_amount: compared,
    visits_this_week: compared,
    /** Nothing counted yet (a new organisation): the page shows what to do first. */
    empty: z.boolean(),
  })
  .meta({ id: "DashboardStats" });
export type DashboardStats = z.infer<typeof dashboardStats>;

const bucket = z.object({ key: z.string(), label: z.string(), count: z.number().int() });

export const userBreakdown = z
  .object({
    ...answerScope,
    by_state: z.array(bucket),
    by_offering: z.array(bucket),
    by_frequency: z.array(bucket),
    by_payment_type: z.array(bucket),
  })
  .meta({ id: "UserBreakdown" });
export type UserBreakdown = z.infer<typeof userBreakdown>;

export const costAndVisitBreakdown = z
  .object({
    ...answerScope,
    from: z.string(),
    to: z.string(),
    by_offering: z.array(
      z.object({
        offering_id: z.string(),
        name: z.string(),
        revenue: z.number().int(),
        visits: z.number().int(),
      }),
    ),
    /** Weeks (Monday first) of the range: cents collected and expected, joins and cancellations. */
    by_week: z.array(
      z.object({
        week: z.string(),
        collected: z.number().int(),
        expected: z.number().int(),
        joined: z.number().int(),
        cancelled: z.number().int(),
      }),
    ),
    visits_by_day: z.array(z.object({ day: z.string(), visits: z.number().int() })),
    /**
     * Member-months (a member at a gym in a calendar month) with something paid, by what each visit
     * cost (paid ÷ visits that month), summed over the months the range touches.
     */
    cost_per_visit: z.array(bucket),
    /**
     * Offers in the range (docs/offers.md "Reporting"): trials started (start date), converted (their
     * first paid charge fell due) and stopped (cancelled inside the trial, on the day it was
     * recorded); memberships that joined with a promo code and the cents the codes took off charges
     * that fell due; visit passes sold (start date) and pass visits used.
     */
    offers: z.object({
      trials_started: z.number().int(),
      trials_converted: z.number().int(),
      trials_stopped: z.number().int(),
      codes_used: z.number().int(),
      discount_given: z.number().int(),
      passes_sold: z.number().int(),
      pass_visits_used: z.number().int(),
    }),
    /** Who paid most and never came in the range's last month (churn risk), most paid first, at most 20. */
    churn_risk: z.array(
      z.object({ user_id: z.string(), name: z.string(), gym_id: z.string(), paid: z.number().int() }),
    ),
  })
  .meta({ id: "CostAndVisitBreakdown" });
export type CostAndVisitBreakdown = z.infer<typeof costAndVisitBreakdown>;
