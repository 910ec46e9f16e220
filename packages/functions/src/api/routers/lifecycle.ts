import {
  cancelInput,
  cancellationPreviewSchema,
  idempotencyHeaders,
  manualPaymentInput,
  passVisitsInput,
  pauseInput,
  priceChangeEmailSchema,
  priceChangeHistorySchema,
  priceChangeInput,
  startEarlySchema,
} from "@gym/core/contract/lifecycle";
import { subscriptionSchema } from "@gym/core/contract/payment";
import { cancellationPreview, cancelSubscription } from "@gym/core/subscription/operations/cancel";
import {
  priceChangeHistory,
  priceChangePreview,
  schedulePriceChange,
} from "@gym/core/subscription/operations/change-price";
import { recordManualPayment } from "@gym/core/subscription/operations/manual-payment";
import { addPassVisits } from "@gym/core/subscription/operations/pass-visits";
import { pauseSubscription, removePause } from "@gym/core/subscription/operations/pause";
import { startEarlyData, startNow } from "@gym/core/subscription/operations/start-early";
import { undoCancellation } from "@gym/core/subscription/operations/undo-cancellation";
import { readSubscription } from "@gym/core/subscription/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute } from "../context";
import { envelope, errorResponses, errorSchema, idParam, json, jsonBody, optionalJsonBody } from "../respond";

export const conflict = { description: "Conflict", content: { "application/json": { schema: errorSchema } } };
const changed = {
  200: json(envelope(subscriptionSchema)),
  403: errorResponses[403],
  404: errorResponses[404],
  409: conflict,
  422: errorResponses[422],
};
const tags = ["Membership lifecycle"];

/**
 * Staff lifecycle calls on a subscription (spec 001 §7 Members; docs/billing.md). Any staff member
 * of the subscription's gym may read; changing needs an admin of that gym (403 for trainers);
 * another organisation's ids answer 404.
 */
export const lifecycleRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/subscriptions/{id}",
      tags,
      summary: "One subscription with its payments and derived states (staff of its gym)",
      request: { params: idParam },
      responses: {
        200: json(envelope(subscriptionSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await readSubscription(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/{id}/pause",
      tags,
      summary:
        "Pause from pause_start_at until pause_end_at (the first day running again); spends pause-day credit, 422 past it",
      request: { params: idParam, ...jsonBody(pauseInput) },
      responses: changed,
    }),
    async (c) =>
      c.json(
        { data: await pauseSubscription(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/subscriptions/{id}/pause",
      tags,
      summary: "Remove a pause that has not started; its days go back to the credit",
      request: { params: idParam },
      responses: changed,
    }),
    async (c) => c.json({ data: await removePause(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/subscriptions/{id}/cancellation-preview",
      tags,
      summary: "What cancelling now would mean: effect date, cooling-off, remaining term value and break fee",
      request: { params: idParam, query: z.object({ immediate: z.enum(["true", "false"]).optional() }) },
      responses: {
        200: json(envelope(cancellationPreviewSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) =>
      c.json(
        {
          data: await cancellationPreview(
            actorOf(c),
            c.req.valid("param").id,
            c.req.valid("query").immediate === "true",
          ),
        },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/{id}/cancel",
      tags,
      summary:
        "Cancel at the end of the paid period (or immediately); inside a term after cooling-off a break fee payment is created",
      request: { params: idParam, ...optionalJsonBody(cancelInput) },
      responses: changed,
    }),
    async (c) =>
      c.json(
        { data: await cancelSubscription(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/{id}/undo-cancellation",
      tags,
      summary:
        "Undo a cancellation before it takes effect (undo_cancellation_until); an uncharged break fee is withdrawn",
      request: { params: idParam },
      responses: changed,
    }),
    async (c) => c.json({ data: await undoCancellation(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/schedule-price-change",
      tags,
      summary:
        "Schedule a new price for one or many subscriptions from transition_takes_effect_at (default: next period end) and email each member; a rise needs the notice period",
      request: jsonBody(priceChangeInput),
      responses: { ...changed, 200: json(envelope(z.array(subscriptionSchema))) },
    }),
    async (c) => c.json({ data: await schedulePriceChange(actorOf(c), c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/change-price-email-preview",
      tags,
      summary: "The exact email each member would get for this price change (nothing is changed)",
      request: jsonBody(priceChangeInput),
      responses: { ...changed, 200: json(envelope(z.array(priceChangeEmailSchema))) },
    }),
    async (c) => c.json({ data: await priceChangePreview(actorOf(c), c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/users/{id}/price-change-history",
      tags,
      summary: "A member's scheduled price changes, newest first",
      request: { params: idParam },
      responses: {
        200: json(envelope(z.array(priceChangeHistorySchema))),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await priceChangeHistory(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/subscriptions/{id}/start-early-data",
      tags,
      summary: "What starting an upcoming membership today would charge",
      request: { params: idParam },
      responses: {
        200: json(envelope(startEarlySchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await startEarlyData(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/{id}/start-now",
      tags,
      summary: "Start an upcoming (not cancelled, not PIF) membership today",
      request: { params: idParam },
      responses: changed,
    }),
    async (c) => c.json({ data: await startNow(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/{id}/manual-payment",
      tags,
      summary:
        "Record a payment taken by eftpos, cash or bank transfer: clears the balance owing first, the rest is credit ahead",
      request: { params: idParam, ...jsonBody(manualPaymentInput) },
      responses: changed,
    }),
    async (c) =>
      c.json(
        { data: await recordManualPayment(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/subscriptions/{id}/pass-visits",
      tags,
      summary:
        'Add visits to a visit pass, with a reason, once per Idempotency-Key (docs/offers.md "Visit passes"): 409 not_a_pass for any other membership',
      request: { params: idParam, headers: idempotencyHeaders, ...jsonBody(passVisitsInput) },
      responses: changed,
    }),
    async (c) =>
      c.json(
        {
          data: await addPassVisits(
            actorOf(c),
            c.req.valid("param").id,
            c.req.valid("json"),
            c.req.valid("header")["idempotency-key"],
          ),
        },
        200,
      ),
  );
