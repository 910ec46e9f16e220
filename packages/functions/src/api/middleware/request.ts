import { newId } from "@gym/core/ids";
import { log } from "@gym/core/log";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";

/** A request id (from the caller or new), echoed in `X-Request-Id`, and one JSON log line per request. */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && /^[\w-]{1,64}$/.test(incoming) ? incoming : newId();
  c.set("requestId", requestId);
  c.header("X-Request-Id", requestId);
  const started = performance.now();
  await next();
  log.info("request", {
    request_id: requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Math.round(performance.now() - started),
  });
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence beside SameSite cookies: a state-changing call must carry
 * `X-Requested-With: XMLHttpRequest`, which a cross-site form cannot send. Provider webhooks
 * are exempt (they are verified by signature instead).
 */
export const requireXhrHeader = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method) || c.req.path.startsWith("/api/webhooks/")) return next();
  if (c.req.header("x-requested-with") !== "XMLHttpRequest") {
    return c.json(
      {
        message: "State-changing requests must send X-Requested-With: XMLHttpRequest.",
        error: "csrf_header_missing",
      },
      403,
    );
  }
  return next();
});
