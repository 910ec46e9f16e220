import {
  userBreakdown as breakdownSchema,
  costAndVisitBreakdown as costAndVisitSchema,
  dashboardRangeQuery,
  dashboardScopeQuery,
  dashboardStats as statsSchema,
} from "@gym/core/contract/dashboard";
import { costAndVisitBreakdown, dashboardStats, userBreakdown } from "@gym/core/rollup/dashboard";
import { actorOf, createRouter, staffRoute } from "../context";
import { envelope, errorResponses, json } from "../respond";

const errors = { 403: errorResponses[403], 404: errorResponses[404], 422: errorResponses[422] };

/**
 * The dashboard's numbers, read from the rollups (docs/dashboard.md). The figures are the business's
 * money: each route's row (route-policy.ts "money") refuses trainers (docs/access-control.md).
 */
export const dashboardRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/stats",
      tags: ["Dashboard"],
      summary: "Members, money and visits of a gym (or the organisation) beside the period before",
      request: { query: dashboardScopeQuery },
      responses: { 200: json(envelope(statsSchema)), ...errors },
    }),
    async (c) => c.json({ data: await dashboardStats(actorOf(c), c.req.valid("query")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/user-breakdown",
      tags: ["Dashboard"],
      summary: "Members by state, offering, price frequency and payment type",
      request: { query: dashboardScopeQuery },
      responses: { 200: json(envelope(breakdownSchema)), ...errors },
    }),
    async (c) => c.json({ data: await userBreakdown(actorOf(c), c.req.valid("query")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/cost-and-visit-breakdown",
      tags: ["Dashboard"],
      summary: "Revenue and visits per offering, weekly series, cost per visit and the churn-risk list",
      request: { query: dashboardRangeQuery },
      responses: { 200: json(envelope(costAndVisitSchema)), ...errors },
    }),
    async (c) => c.json({ data: await costAndVisitBreakdown(actorOf(c), c.req.valid("query")) }, 200),
  );
