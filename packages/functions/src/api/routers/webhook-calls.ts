import {
  akahuWebhooksQuery,
  webhookCallSchema as call,
  webhookCallsQuery,
} from "@gym/core/contract/webhook-call";
import { akahuWebhooksFor, webhookCallsFor } from "@gym/core/webhook-log/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute } from "../context";
import { errorResponses, json, paged, pageEnvelope } from "../respond";

/** The inbound provider calls log (debugging pages; organisation admins). */
export const webhookCallsRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/webhook-calls",
      tags: ["Webhooks"],
      summary: "Every inbound provider call of the current organisation, newest first",
      request: { query: webhookCallsQuery },
      responses: { 200: json(pageEnvelope(call)), 403: errorResponses[403], 422: errorResponses[422] },
    }),
    async (c) => {
      const page = await webhookCallsFor(actorOf(c), c.req.valid("query"));
      return c.json(paged(page), 200);
    },
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{organisationId}/akahu-webhooks",
      tags: ["Webhooks"],
      summary: "The organisation's bank-feed (Akahu) webhooks, newest first",
      request: { params: z.object({ organisationId: z.string().min(1).max(64) }), query: akahuWebhooksQuery },
      responses: { 200: json(pageEnvelope(call)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) => {
      const page = await akahuWebhooksFor(
        actorOf(c),
        c.req.valid("param").organisationId,
        c.req.valid("query"),
      );
      return c.json(paged(page), 200);
    },
  );
