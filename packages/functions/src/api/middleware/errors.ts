import { ConflictError, DomainError, RateLimitedError, ValidationError } from "@gym/core/errors";
import { log } from "@gym/core/log";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Maps every thrown error to the API's error shape. Unknown errors are logged and answer 500. */
export function handleError(err: Error, c: Context) {
  if (err instanceof DomainError) {
    if (err instanceof RateLimitedError) c.header("Retry-After", String(err.retryAfterSeconds));
    return c.json(
      {
        message: err.message,
        ...(err.code ? { error: err.code } : {}),
        ...(err instanceof ValidationError ? { errors: err.errors } : {}),
        ...(err instanceof ConflictError && err.data !== undefined ? { data: err.data } : {}),
      },
      err.status as ContentfulStatusCode,
    );
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 400 ? "The request body could not be read." : err.message || "Request failed.";
    return c.json({ message, error: "bad_request" }, status as ContentfulStatusCode);
  }
  log.error("unhandled error", {
    request_id: c.get("requestId"),
    path: c.req.path,
    error: err.message,
    stack: err.stack,
  });
  return c.json(
    { message: "Something went wrong on our side. Please try again.", error: "server_error" },
    500,
  );
}

export function notFound(c: Context) {
  return c.json({ message: "There is nothing at this address.", error: "not_found" }, 404);
}
