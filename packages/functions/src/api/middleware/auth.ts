import { policy } from "@gym/core/auth/policy";
import { SESSION_ABSOLUTE_SECONDS, sessionForToken } from "@gym/core/auth/session";
import { signedIn } from "@gym/core/auth/signed-in";
import { config } from "@gym/core/config";
import { ForbiddenError, TwoFactorRequiredError, UnauthenticatedError } from "@gym/core/errors";
import { addLogContext } from "@gym/core/log";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { viaCloudFront } from "./security";

export const SESSION_COOKIE = "gym_session";

/**
 * The session is read by the route helpers that need it (below), not for every request: a public
 * call reads nothing, a session call the session, a user or staff call the session with the actor's
 * role and gyms in one round (core auth/signed-in.ts). Nothing is enforced here.
 */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  c.set("session", null);
  await next();
});

async function signedInCall(c: Context<AppEnv>) {
  const { session, actor } = await signedIn(getCookie(c, SESSION_COOKIE));
  if (!session) throw new UnauthenticatedError();
  if (!session.two_factor_passed || !actor) throw new TwoFactorRequiredError();
  c.set("session", session);
  c.set("actor", actor);
  addLogContext({ organisation_id: actor.organisationId ?? undefined });
  return actor;
}

/**
 * HttpOnly and SameSite=Lax always; in AWS also Secure and scoped to the parent domain so one
 * sign-in serves the staff and join hosts.
 */
export function setSessionCookie(c: Context, token: string) {
  const aws = config.appEnv === "aws";
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: aws,
    maxAge: SESSION_ABSOLUTE_SECONDS,
    ...(aws && config.cookieDomain ? { domain: config.cookieDomain } : {}),
  });
}

export function clearSessionCookie(c: Context) {
  const aws = config.appEnv === "aws";
  deleteCookie(c, SESSION_COOKIE, {
    path: "/",
    secure: aws,
    ...(aws && config.cookieDomain ? { domain: config.cookieDomain } : {}),
  });
}

/** Any session, including one waiting for its emailed code. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const session = await sessionForToken(getCookie(c, SESSION_COOKIE));
  if (!session) throw new UnauthenticatedError();
  c.set("session", session);
  addLogContext({ organisation_id: session.current_organisation_id ?? undefined });
  await next();
});

/** A user who has passed the code. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  await signedInCall(c);
  await next();
});

/** A staff member of the current organisation. */
export const requireStaff = createMiddleware<AppEnv>(async (c, next) => {
  const actor = await signedInCall(c);
  if (!policy.useStaffArea(actor)) throw new ForbiddenError("This area is for gym staff.");
  await next();
});

/**
 * The caller's address for throttling. In AWS only a request that came through our CloudFront
 * (it carries the origin secret; others are refused, see security.ts) has its
 * CloudFront-Viewer-Address trusted. Locally (APP_ENV local or test) the first X-Forwarded-For
 * entry (tests use it to act as several clients), else X-Real-IP.
 */
export function clientAddress(c: Context): string {
  if (viaCloudFront(c)) {
    const viewer = c.req.header("cloudfront-viewer-address");
    if (viewer) return viewer.replace(/:\d+$/, "");
  }
  if (config.isLocal) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
    return c.req.header("x-real-ip") ?? "local";
  }
  return "unknown";
}
