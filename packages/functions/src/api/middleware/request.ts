import { newId } from "@gym/core/ids";
import { log, withLogContext } from "@gym/core/log";
import { apiRequestMetric } from "@gym/core/metrics";
import { settledBeforeAnswer } from "@gym/core/outbox/outbox";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../context";

/**
 * A request id (from the caller or new), echoed in `X-Request-Id`; every log line of the request
 * carries it (and the organisation, once the session names one: middleware/auth.ts), one JSON log
 * line closes the request, and its metrics (status class, latency, route template) are emitted.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && /^[\w-]{1,64}$/.test(incoming) ? incoming : newId();
  c.set("requestId", requestId);
  c.header("X-Request-Id", requestId);
  const started = performance.now();
  await withLogContext({ request_id: requestId }, async () => {
    // The outbox's deletes after an inline delivery go beside the answer's own reads; the
    // response waits for them (outbox.ts `settledBeforeAnswer`).
    await settledBeforeAnswer(() => next());
    const ms = Math.round(performance.now() - started);
    const route = routeTemplate(c);
    apiRequestMetric({ route, method: c.req.method, status: c.res.status, ms });
    // A path segment may be a secret (Kisi's webhook address): log the template for those.
    const path = /:(secret|token)\b/.test(route) ? route : c.req.path;
    log.info("request", { method: c.req.method, route, path, status: c.res.status, ms });
  });
});

/**
 * The route's template (`/api/members/:member_id`), never the path with its ids, so requests
 * group by route; `unmatched` when no route answered (404s of unknown paths).
 */
function routeTemplate(c: Context<AppEnv>): string {
  const path = routePath(c, -1);
  return path && !path.endsWith("*") ? path : "unmatched";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence beside SameSite cookies: a state-changing call must carry
 * `X-Requested-With: XMLHttpRequest`, which a cross-site form cannot send. Provider webhooks
 * are exempt (they are verified by signature instead), and so is the one-click unsubscribe that
 * mail clients POST (RFC 8058): it uses no cookie, only its signed token.
 */
export const requireXhrHeader = createMiddleware<AppEnv>(async (c, next) => {
  if (
    SAFE_METHODS.has(c.req.method) ||
    c.req.path.startsWith("/api/webhooks/") ||
    c.req.path === "/api/unsubscribe"
  )
    return next();
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
