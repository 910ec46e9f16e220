import type { Actor } from "@gym/core/auth/actor";
import type { Session } from "@gym/core/auth/session";
import { ForbiddenError } from "@gym/core/errors";
import { fieldErrors } from "@gym/core/validation";
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { checkAnswers } from "./middleware/answers";
import { requireSession, requireStaff, requireUser } from "./middleware/auth";
import { type AudienceName, audienceAllows, audiences, routeRow } from "./route-policy";

/** What middleware puts on the request context for routers. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The live session from the cookie: set by the session, user and staff routes' checks (null before). */
    session: Session | null;
    /** Set by the access middleware of user and staff routes. */
    actor: Actor;
  };
}

/**
 * A router for one domain. Invalid params, query or body answer 422 with the field messages
 * (never a 500), in the API's error shape.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = fieldErrors(result.error);
        const first = Object.values(errors)[0]?.[0];
        return c.json(
          { message: first ?? "The given data was invalid.", errors, error: "validation_failed" },
          422,
        );
      }
    },
  });
}

/**
 * Routes declare who may call them; the declaration is both the middleware that enforces it
 * and the `security` entry in the OpenAPI document (which the isolation test walks).
 *  - publicRoute: anyone (sign-in, health, webhooks).
 *  - sessionRoute: any session, even one still waiting for its emailed code.
 *  - userRoute: a signed-in user who has passed the code.
 *  - staffRoute: a signed-in staff member of the current organisation.
 * Which roles may call a route is its row in the route table (route-policy.ts): the helper looks it
 * up by method and path, enforces its audience's role part (403) and names it in the document
 * (`x-policy`); a row whose audience needs another helper is a mistake caught at start-up.
 * Each also checks its answers against its declared responses in test mode (middleware/answers.ts).
 */
function declared<R extends RouteConfig>(config: R, level: "public" | "session" | "user" | "staff") {
  const row = routeRow(config.method, config.path);
  if (row && audiences[row].level !== level)
    throw new Error(
      `${config.method.toUpperCase()} ${config.path}: its route-policy row "${row}" needs a ${audiences[row].level} route, not ${level}`,
    );
  return {
    row,
    extra: { security: level === "public" ? [] : [{ session: [] }], "x-access": level, "x-policy": row },
  };
}

/** The role part of a route's row, after its helper's session check put the actor on the context. */
const requireAudience = (row: AudienceName | undefined) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (row && !audienceAllows(row, c.get("actor"))) throw new ForbiddenError(audiences[row].refusal);
    await next();
  });

export const publicRoute = <R extends RouteConfig>(config: R) =>
  createRoute({
    ...config,
    ...declared(config, "public").extra,
    middleware: [checkAnswers(config.responses)] as const,
  });
export const sessionRoute = <R extends RouteConfig>(config: R) =>
  createRoute({
    ...config,
    ...declared(config, "session").extra,
    middleware: [checkAnswers(config.responses), requireSession] as const,
  });
export const userRoute = <R extends RouteConfig>(config: R) => {
  const { row, extra } = declared(config, "user");
  return createRoute({
    ...config,
    ...extra,
    middleware: [checkAnswers(config.responses), requireUser, requireAudience(row)] as const,
  });
};
export const staffRoute = <R extends RouteConfig>(config: R) => {
  const { row, extra } = declared(config, "staff");
  return createRoute({
    ...config,
    ...extra,
    middleware: [checkAnswers(config.responses), requireStaff, requireAudience(row)] as const,
  });
};

export const actorOf = (c: Context<AppEnv>) => c.get("actor");
