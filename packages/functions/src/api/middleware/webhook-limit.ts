import { takeLimit } from "@gym/core/auth/throttle";
import { WEBHOOK_PROVIDERS } from "@gym/core/contract/webhook-call";
import { webhookMetric } from "@gym/core/metrics";
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
  // Counted for the operators (alarm WebhookRateLimited): a provider's own calls refused here wait
  // for its retries. Named by a known provider only, so a scanner's paths add no metric series.
  const named = c.req.path.split("/webhooks/")[1]?.split("/")[0];
  const provider = WEBHOOK_PROVIDERS.find((p) => p === named) ?? "unknown";
  webhookMetric(provider, "rate_limited");
  c.header("Retry-After", String(taken.retryAfterSeconds));
  return c.json({ message: "Too many calls. Please retry later.", error: "rate_limited" }, 429);
});
