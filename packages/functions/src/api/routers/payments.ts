import {
  expectedPaymentsQuery,
  expectedPaymentsSchema,
  memberPaymentsQuery,
  paymentExportBody,
  paymentListQuery,
  paymentSchema,
} from "@gym/core/contract/payment";
import { expectedPayments } from "@gym/core/payment/expected";
import { exportPayments } from "@gym/core/payment/export";
import { listMemberPayments, listPayments } from "@gym/core/payment/list";
import { markPaymentReceived } from "@gym/core/payment/received";
import { actorOf, createRouter, staffRoute } from "../context";
import {
  envelope,
  errorResponses,
  exportResponse,
  idParam,
  json,
  optionalJsonBody,
  paged,
  pageEnvelope,
  redirectToExport,
} from "../respond";

/** Payments (spec 001 §7 Payments) and the expected-payments debugging page. */
export const paymentsRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/payments",
      tags: ["Payments"],
      summary:
        "The organisation's payments newest first (by due date), filtered by status, gym, type and due-date range; gym admins see their gyms, trainers 403",
      request: { query: paymentListQuery },
      responses: {
        200: json(pageEnvelope(paymentSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      // Money (route-policy.ts): trainers are refused before this runs.
      const page = await listPayments(actorOf(c), c.req.valid("query"));
      return c.json(paged(page), 200);
    },
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/users/{id}/payments",
      tags: ["Payments"],
      summary: "One member's payments at the staff member's gyms, newest first",
      request: { params: idParam, query: memberPaymentsQuery },
      responses: {
        200: json(pageEnvelope(paymentSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const page = await listMemberPayments(actorOf(c), c.req.valid("param").id, c.req.valid("query"));
      return c.json(paged(page), 200);
    },
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/payments/{id}/received",
      tags: ["Payments"],
      summary:
        "Mark a bank transfer or manual payment received (awaiting_payment → sent, processed_by you); gym admins",
      request: { params: idParam },
      responses: {
        200: json(envelope(paymentSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await markPaymentReceived(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/payments/export",
      tags: ["Payments"],
      summary:
        "The filtered payments list as CSV, streamed page by page (amounts in dollars, dates en-NZ Pacific/Auckland); admins",
      request: optionalJsonBody(paymentExportBody),
      responses: {
        ...exportResponse,
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => redirectToExport((await exportPayments(actorOf(c), c.req.valid("json"))).location) as never,
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/expected-payments-debugging",
      tags: ["Payments"],
      summary:
        "What the next billing runs will charge, by due date and gym, and anything stuck; organisation admins",
      request: { query: expectedPaymentsQuery },
      responses: {
        200: json(envelope(expectedPaymentsSchema)),
        403: errorResponses[403],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await expectedPayments(actorOf(c), c.req.valid("query")) }, 200),
  );
