import { activeUsers } from "@gym/core/access/active-users";
import {
  memberSubscriptionPeriods,
  memberWeeklyCostPerVisit,
  memberWeeklyVisits,
} from "@gym/core/access/charts";
import { exportVisits } from "@gym/core/access/export";
import { memberAccessControl, memberAccessCredentials, recreateKisiLogin } from "@gym/core/access/service";
import { listUserVisits, listVisits } from "@gym/core/access/visits";
import {
  accessCredentialSchema,
  activeUsersQuery,
  activeUsersSchema,
  doorAccessEntrySchema,
  memberAccessControlSchema,
  memberVisitsQuery,
  memberWeeksQuery,
  staffKisiAccessInput,
  subscriptionPeriodSchema,
  visitExportBody,
  visitListQuery,
  visitSchema,
  weeklyCostPerVisitSchema,
  weeklyVisitsSchema,
} from "@gym/core/contract/access";
import { staffKisiAccess } from "@gym/core/staff/door-access";
import { actorOf, createRouter, staffRoute } from "../context";
import {
  envelope,
  errorResponses,
  exportResponse,
  idParam,
  json,
  jsonBody,
  optionalJsonBody,
  paged,
  pageEnvelope,
  redirectToExport,
  wholeList,
} from "../respond";

/** Door access (Kisi) for members and staff. docs/access-control.md. */
export const accessRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}/access-control",
      tags: ["Access control"],
      summary:
        "The member's door standing (the one rule the doors use) and the door access held for them at each gym's Kisi place",
      request: { params: idParam },
      responses: {
        200: json(envelope(memberAccessControlSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await memberAccessControl(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}/access-control-credentials",
      tags: ["Access control"],
      summary:
        "What Kisi reports for the member at each of their gyms' places: access now and the grants behind it",
      request: { params: idParam },
      responses: {
        200: json(wholeList(accessCredentialSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await memberAccessCredentials(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/users/{id}/recreate-kisi-login",
      tags: ["Access control"],
      summary:
        "Take the member's Kisi access away and give it again if they are in good standing (re-sync door access); admins of their gym",
      request: { params: idParam },
      responses: {
        200: json(envelope(memberAccessControlSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await recreateKisiLogin(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/staff/{id}/kisi-access",
      tags: ["Access control"],
      summary: "Give or remove a staff member's door access at a gym; organisation admins",
      request: { params: idParam, ...jsonBody(staffKisiAccessInput) },
      responses: {
        200: json(envelope(doorAccessEntrySchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await staffKisiAccess(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/visits",
      tags: ["Visits"],
      summary:
        "Visits (unlocks of doors that track visits) newest first, by gym, member and date range (Auckland days); trainers see their gyms'",
      request: { query: visitListQuery },
      responses: {
        200: json(pageEnvelope(visitSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json(paged(await listVisits(actorOf(c), c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/visits/export",
      tags: ["Visits"],
      summary:
        "The filtered visits list as CSV (date and time en-NZ Pacific/Auckland), written page by page to the uploads store; answers 303 to its short-lived download address; admins",
      request: optionalJsonBody(visitExportBody),
      responses: {
        ...exportResponse,
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => redirectToExport((await exportVisits(actorOf(c), c.req.valid("json"))).location) as never,
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/users/{id}/visits",
      tags: ["Visits"],
      summary: "One member's visits newest first, by date range",
      request: { params: idParam, query: memberVisitsQuery },
      responses: {
        200: json(pageEnvelope(visitSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json(paged(await listUserVisits(actorOf(c), c.req.valid("param").id, c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}/weekly-visits",
      tags: ["Visits"],
      summary:
        "The member's successful visits per week (Monday to Sunday, Auckland) for the last `weeks` weeks",
      request: { params: idParam, query: memberWeeksQuery },
      responses: {
        200: json(wholeList(weeklyVisitsSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json(
        { data: await memberWeeklyVisits(actorOf(c), c.req.valid("param").id, c.req.valid("query")) },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}/subscription-periods",
      tags: ["Visits"],
      summary: "The member's memberships as periods (start, last day, price as cents per week), oldest first",
      request: { params: idParam },
      responses: {
        200: json(wholeList(subscriptionPeriodSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await memberSubscriptionPeriods(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}/weekly-cost-per-visit",
      tags: ["Visits"],
      summary:
        "Per week: the member's visits, what their membership cost that week and the cost per visit (cents; null without visits)",
      request: { params: idParam, query: memberWeeksQuery },
      responses: {
        200: json(wholeList(weeklyCostPerVisitSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json(
        { data: await memberWeeklyCostPerVisit(actorOf(c), c.req.valid("param").id, c.req.valid("query")) },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/active-users",
      tags: ["Access control"],
      summary:
        "Members counted as active by the door standing rule, with the reason, and the mismatches between standing and door access; organisation admins",
      request: { query: activeUsersQuery },
      responses: {
        200: json(envelope(activeUsersSchema)),
        403: errorResponses[403],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await activeUsers(actorOf(c), c.req.valid("query")) }, 200),
  );
