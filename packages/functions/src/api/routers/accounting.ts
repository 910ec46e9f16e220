import {
  accountingMappingInput,
  accountingMappingSchema,
  gstSummaryQuery,
  gstSummarySchema,
  journalExportBody,
  journalStatusQuery,
  journalStatusSchema,
  payoutExportBody,
  payoutListQuery,
  payoutSchema,
} from "@gym/core/contract/accounting";
import { pageEnvelope } from "@gym/core/contract/http";
import { actorOf, createRouter, staffRoute } from "../context";
import {
  envelope,
  errorResponses,
  exportResponse,
  idParams,
  json,
  jsonBody,
  optionalJsonBody,
  redirectToExport,
} from "../respond";

const orgParam = idParams("organisationId");

/**
 * The books (docs/accounting.md): the account mapping, the Xero manual journal export, the GST
 * summary and the payouts; organisation admins only. Core is imported on the first call, not at cold start.
 */
export const accountingRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{organisationId}/accounting",
      tags: ["Accounting"],
      summary:
        "The account mapping for the Xero export (defaults: Xero's standard NZ chart, `is_default` true until saved); organisation admins",
      request: { params: orgParam },
      responses: {
        200: json(envelope(accountingMappingSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => {
      const { readMapping } = await import("@gym/core/accounting/mapping");
      return c.json({ data: await readMapping(actorOf(c), c.req.valid("param").organisationId) }, 200);
    },
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/organisations/{organisationId}/accounting",
      tags: ["Accounting"],
      summary:
        "Save the whole account mapping (account codes, tax rate names, clearing accounts, tracking per gym); organisation admins",
      request: { params: orgParam, ...jsonBody(accountingMappingInput) },
      responses: {
        200: json(envelope(accountingMappingSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { saveMapping } = await import("@gym/core/accounting/mapping");
      return c.json(
        { data: await saveMapping(actorOf(c), c.req.valid("param").organisationId, c.req.valid("json")) },
        200,
      );
    },
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/accounting/journals",
      tags: ["Accounting"],
      summary:
        "Which days (and gyms) of a period were exported before: exporting them again gives the same journals; organisation admins",
      request: { query: journalStatusQuery },
      responses: {
        200: json(envelope(journalStatusSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { journalStatus } = await import("@gym/core/accounting/export");
      return c.json({ data: await journalStatus(actorOf(c), c.req.valid("query")) }, 200);
    },
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/accounting/journals/export",
      tags: ["Accounting"],
      summary:
        "Manual journals in Xero's import template, one per day, gym and way of paying (a zip of CSVs past 300 lines); days over only; organisation admins",
      request: optionalJsonBody(journalExportBody),
      responses: {
        ...exportResponse,
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { exportJournals } = await import("@gym/core/accounting/export");
      return redirectToExport((await exportJournals(actorOf(c), c.req.valid("json"))).location) as never;
    },
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/accounting/gst-summary",
      tags: ["Accounting"],
      summary:
        "A period's GST return figures (total sales, GST collected, zero-rated): the sum of its tax invoices; `format=csv` answers them as a file; organisation admins",
      request: { query: gstSummaryQuery },
      responses: {
        200: {
          ...json(envelope(gstSummarySchema)),
          content: {
            ...json(envelope(gstSummarySchema)).content,
            "text/csv": { schema: { type: "string" } },
          },
        },
        403: errorResponses[403],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { gstSummary, gstSummaryCsv } = await import("@gym/core/accounting/gst");
      const query = c.req.valid("query");
      const summary = await gstSummary(actorOf(c), query);
      if (query.format !== "csv") return c.json({ data: summary }, 200);
      return new Response(await gstSummaryCsv(summary), {
        status: 200,
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="gst-summary-${summary.from}-to-${summary.to}.csv"`,
          "Cache-Control": "no-store",
        },
      }) as never;
    },
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/payouts",
      tags: ["Accounting"],
      summary:
        "The deposits into the gyms' banks in a period (at most 92 days), newest first: Stripe payouts and each day's Akahu bank payments, with the payments and fees inside, a `adds_up` flag and the journal that matches the bank line; organisation admins",
      request: { query: payoutListQuery },
      responses: {
        200: json(pageEnvelope(payoutSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { listPayouts } = await import("@gym/core/accounting/payouts");
      return c.json(await listPayouts(actorOf(c), c.req.valid("query")), 200);
    },
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/payouts/export",
      tags: ["Accounting"],
      summary:
        "The deposits of a period (at most 92 days) as a CSV file: one row per payment inside each deposit, with the deposit, its fees and whether it adds up; organisation admins",
      request: optionalJsonBody(payoutExportBody),
      responses: {
        ...exportResponse,
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { exportPayouts } = await import("@gym/core/accounting/payouts");
      return redirectToExport((await exportPayouts(actorOf(c), c.req.valid("json"))).location) as never;
    },
  );
