import { timingSafeEqual } from "node:crypto";
import { config } from "@gym/core/config";
import {
  API_BODY_LIMIT_BYTES,
  API_HEADERS,
  ORIGIN_SECRET_HEADER,
  WEBHOOK_BODY_LIMIT_BYTES,
} from "@gym/core/security/headers";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";

/** `Cache-Control: no-store` and nosniff on every /api answer (core/security/headers.ts). */
export const apiHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(API_HEADERS)) {
    // An immutable public file (a content-hashed logo) keeps its own caching.
    if (name === "Cache-Control" && /\bpublic\b/.test(c.res.headers.get(name) ?? "")) continue;
    c.res.headers.set(name, value);
  }
});

function same(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether the request came through our CloudFront (it carries the origin secret). */
export function viaCloudFront(c: Context): boolean {
  const expected = config.optional("ORIGIN_SECRET");
  const given = c.req.header(ORIGIN_SECRET_HEADER);
  return Boolean(expected && given && same(given, expected));
}

/**
 * In AWS the API answers only requests that came through CloudFront: API Gateway's own
 * execute-api address is public, and a direct caller could otherwise choose its client address
 * (CloudFront-Viewer-Address) and skip the per-address limits. Locally nothing is checked.
 */
export const requireCloudFront = createMiddleware<AppEnv>(async (c, next) => {
  if (config.isLocal || viaCloudFront(c)) return next();
  return c.json({ message: "Call the API through the site's address.", error: "origin_not_allowed" }, 403);
});

const tooLarge = (c: Context) =>
  c.json({ message: "The request body is too large.", error: "payload_too_large" }, 413);

/**
 * Body size limits, checked before a body is read: Content-Length first, and a streamed body is
 * counted as it arrives and cut off at the limit. Provider webhooks: 256 KB; everything else
 * 6 MB (the 5 MB logo with its multipart framing).
 */
export const webhookBodyLimit = bodyLimit({ maxSize: WEBHOOK_BODY_LIMIT_BYTES, onError: tooLarge });
export const apiBodyLimit = bodyLimit({ maxSize: API_BODY_LIMIT_BYTES, onError: tooLarge });

/** Loopback host names: localhost, *.localhost, 127.0.0.0/8 and [::1], with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host
    .trim()
    .toLowerCase()
    .replace(/:\d+$/, "")
    .replace(/^\[(.*)\]$/, "$1");
  return (
    name === "localhost" || name.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(name) || name === "::1"
  );
}

/**
 * Developer routes (mailbox, simulated providers) exist only in local mode, and even then answer
 * only a loopback Host: a local server reached by another name (a LAN address, a DNS rebinding
 * page) gets 404 as if they did not exist.
 */
export const loopbackOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (config.isLocal && isLoopbackHost(c.req.header("host"))) return next();
  return c.json({ message: "There is nothing at this address.", error: "not_found" }, 404);
});
