import { z } from "@hono/zod-openapi";
import { createRouter, publicRoute } from "../api/context";
import { json } from "../api/respond";
import { receiveAkahu } from "./akahu";
import { receiveKisi } from "./kisi";
import { receiveStripe } from "./stripe";

const received = z
  .object({
    received: z.boolean(),
    outcome: z.enum(["accepted", "refused", "rejected", "duplicate", "error"]),
    call_id: z.string(),
  })
  .openapi("WebhookReceipt");
const answers = {
  200: json(
    received,
    "Recorded (accepted, duplicate, or refused: verified but not bound to what it names, nothing changed)",
  ),
  400: json(received, "Signature or body rejected (recorded)"),
  500: json(received, "Handling failed (recorded); the provider retries"),
};

/**
 * Provider webhooks (public, exempt from the CSRF header; Stripe and Akahu verified by signature,
 * Kisi by the secret in its URL and by asking Kisi). Every call is recorded in the webhook log,
 * whatever its outcome. The body is read raw: signatures are over the exact bytes sent. Bodies
 * over 256 KB are refused (413) and each source address may make 600 calls a minute (429), both
 * before anything is read or recorded (app.ts).
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
      path: "/webhooks/kisi/{secret}",
      tags: ["Webhooks"],
      summary:
        "Kisi events: the URL's last segment is the organisation's webhook secret; unlocks are confirmed with Kisi",
      request: { params: z.object({ secret: z.string().max(200) }) },
      responses: answers,
    }),
    async (c) => {
      const answer = await receiveKisi(await c.req.text(), c.req.valid("param").secret);
      return c.json(
        { received: answer.status === 200, outcome: answer.outcome, call_id: answer.call_id },
        answer.status,
      );
    },
  );
