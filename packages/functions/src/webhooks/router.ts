import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../api/context";
import { json } from "../api/respond";
import { receiveAkahu } from "./akahu";
import { receiveKisi } from "./kisi";
import { receiveStripe } from "./stripe";
import "@gym/core/payment/webhooks";

const received = z
  .object({
    received: z.boolean(),
    outcome: z.enum(["accepted", "rejected", "duplicate", "error"]),
    call_id: z.string(),
  })
  .openapi("WebhookReceipt");
const answers = {
  200: json(received, "Recorded (accepted or duplicate)"),
  400: json(received, "Signature or body rejected (recorded)"),
  500: json(received, "Handling failed (recorded); the provider retries"),
};

/**
 * Provider webhooks (public, exempt from the CSRF header; each verified by its signature).
 * Every call is recorded in the webhook log, whatever its outcome. The body is read raw:
 * signatures are over the exact bytes sent.
 */
export const webhooksRouter = createRouter()
  .openapi(
    publicRoute({
      method: "post",
      path: "/webhooks/stripe",
      tags: ["Webhooks"],
      summary: "Stripe events (Stripe-Signature over the raw body)",
      responses: answers,
    }),
    async (c) => {
      const answer = await receiveStripe(await c.req.text(), c.req.header("stripe-signature"));
      return c.json(
        { received: answer.status === 200, outcome: answer.outcome, call_id: answer.call_id },
        answer.status,
      );
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/webhooks/akahu",
      tags: ["Webhooks"],
      summary: "Akahu events (RSA-SHA256 X-Akahu-Signature with the X-Akahu-Signing-Key key)",
      responses: answers,
    }),
    async (c) => {
      const answer = await receiveAkahu(
        await c.req.text(),
        c.req.header("x-akahu-signing-key"),
        c.req.header("x-akahu-signature"),
      );
      return c.json(
        { received: answer.status === 200, outcome: answer.outcome, call_id: answer.call_id },
        answer.status,
      );
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/webhooks/kisi",
      tags: ["Webhooks"],
      summary: "Kisi events (recorded and answered)",
      responses: answers,
    }),
    async (c) => {
      const answer = await receiveKisi(await c.req.text());
      return c.json(
        { received: answer.status === 200, outcome: answer.outcome, call_id: answer.call_id },
        answer.status,
      );
    },
  );
