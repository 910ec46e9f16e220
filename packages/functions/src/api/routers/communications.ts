import { receiptSchema } from "@gym/core/contract/receipt";
import { unsubscribe } from "@gym/core/notice/unsubscribe";
import { myReceipt, staffReceipt } from "@gym/core/receipt/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, publicRoute, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, idParam, json } from "../respond";

/** What members are told (docs/communications.md): receipts and the one-click unsubscribe. */
export const communicationsRouter = createRouter()
  .openapi(
    publicRoute({
      method: "post",
      path: "/unsubscribe",
      tags: ["Preferences"],
      summary:
        "One-click unsubscribe (RFC 8058) from the token in an optional email: turns the member's email_notifications_enabled off; no sign-in, no CSRF header (mail clients POST it)",
      request: { query: z.object({ token: z.string().max(200).optional() }) },
      responses: {
        200: json(envelope(z.object({ email_notifications_enabled: z.literal(false) }))),
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await unsubscribe(c.req.valid("query").token) }, 200),
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/me/payments/{id}/receipt",
      tags: ["Receipts"],
      summary: "The receipt (NZ taxable supply information) of one of the signed-in member's paid payments",
      request: { params: idParam },
      responses: { 200: json(envelope(receiptSchema)), 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await myReceipt(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/payments/{id}/receipt",
      tags: ["Receipts"],
      summary: "The receipt of a paid payment at one of the staff member's gyms",
      request: { params: idParam },
      responses: { 200: json(envelope(receiptSchema)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await staffReceipt(actorOf(c), c.req.valid("param").id) }, 200),
  );
