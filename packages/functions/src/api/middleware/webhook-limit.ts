import { takeLimit } from "@gym/core/auth/throttle";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { clientAddress } from "./auth";

/** Calls one source address may make to the provider webhooks in a minute (tests lower it). */
export const webhookCallsPerMinute = () => Number(process.env.WEBHOOK_CALLS_PER_MINUTE ?? 600);

/**
 * Per-source rate limit of the provider webhooks, before a body is read or a call recorded:
 * a flood from one address cannot fill the webhook log or the receivers. Providers retry a 429.
 */
export const webhookRateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const taken = await takeLimit(`webhooks:${clientAddress(c)}`, {
    limit: webhookCallsPerMinute(),
    windowSeconds: 60,
  });
  if (taken.ok) return next();
  c.header("Retry-After", String(taken.retryAfterSeconds));
  return c.json({ message: "Too many calls. Please retry later.", error: "rate_limited" }, 429);
});
