import { receiptSchema } from "@gym/core/contract/receipt";
import { myReceipt, staffReceipt } from "@gym/core/receipt/service";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, idParam, json } from "../respond";

/** What members are told (docs/communications.md): receipts. */
export const communicationsRouter = createRouter()
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
