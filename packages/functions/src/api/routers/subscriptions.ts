import {
  paymentTypeSchema,
  subscribeBody,
  subscriptionConflictSchema,
  subscriptionSchema,
  surchargeTotalQuery,
  surchargeTotalSchema,
} from "@gym/core/contract/payment";
import { surchargeTotal } from "@gym/core/payment/surcharge-total";
import { setDefaultPaymentType } from "@gym/core/payment-type/service";
import { confirmSubscription } from "@gym/core/subscription/confirm";
import { myActiveSubscription } from "@gym/core/subscription/service";
import { actorOf, createRouter, userRoute } from "../context";
import { envelope, errorResponses, idParams, json, optionalJsonBody } from "../respond";

/** The member's side of the money engine (spec 001 §7 Registration-side). */
export const subscriptionsRouter = createRouter()
  .openapi(
    userRoute({
      method: "post",
      path: "/subscriptions",
      tags: ["Subscriptions"],
      summary:
        "The signed-in member confirms their membership (each field defaults to what registration stored); answers it with its first payment",
      request: optionalJsonBody(subscribeBody),
      responses: {
        201: json(envelope(subscriptionSchema), "Created"),
        404: errorResponses[404],
        409: json(
          subscriptionConflictSchema,
          "Conflict: `subscription_exists` answers the membership the member already has as `data` (a second confirm, sent at once or repeated)",
        ),
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await confirmSubscription(actorOf(c), c.req.valid("json")) }, 201),
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/me/active-subscription",
      tags: ["Subscriptions"],
      summary:
        "The signed-in member's live subscription with its upcoming, first and latest payments; data is null when they have none",
      responses: { 200: json(envelope(subscriptionSchema.nullable())) },
    }),
    async (c) => c.json({ data: await myActiveSubscription(actorOf(c)) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/payment-types/{payment_type_id}/switch",
      tags: ["Subscriptions"],
      summary:
        "Make one of the member's payment types the default; an owed balance is retried with it at once",
      request: { params: idParams("payment_type_id") },
      responses: {
        200: json(envelope(paymentTypeSchema)),
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) =>
      c.json({ data: await setDefaultPaymentType(actorOf(c), c.req.valid("param").payment_type_id) }, 200),
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/surcharge-total",
      tags: ["Subscriptions"],
      summary: "A price (or an amount) paid by card or bank: amount, card surcharge and total",
      request: { query: surchargeTotalQuery },
      responses: {
        200: json(envelope(surchargeTotalSchema)),
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await surchargeTotal(actorOf(c), c.req.valid("query")) }, 200),
  );
