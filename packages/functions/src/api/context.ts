import type { Actor } from "@gym/core/auth/actor";
import type { Session } from "@gym/core/auth/session";
import { fieldErrors } from "@gym/core/validation";
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { checkAnswers } from "./middleware/answers";
import { requireSession, requireStaff, requireUser } from "./middleware/auth";

/** What middleware puts on the request context for routers. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The live session from the cookie, or null. Set for every request. */
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
 * Each also checks its answers against its declared responses in test mode (middleware/answers.ts).
 */
export const publicRoute = <R extends RouteConfig>(config: R) =>
  createRoute({
    ...config,
    security: [],
    "x-access": "public",
    middleware: [checkAnswers(config.responses)] as const,
  });
export const sessionRoute = <R extends RouteConfig>(config: R) =>
  createRoute({
    ...config,
    security: [{ session: [] }],
    "x-access": "session",
    middleware: [checkAnswers(config.responses), requireSession] as const,
  });
export const userRoute = <R extends RouteConfig>(config: R) =>
  createRoute({
    ...config,
    security: [{ session: [] }],
    "x-access": "user",
    middleware: [checkAnswers(config.responses), requireUser] as const,
  });
export const staffRoute = <R extends RouteConfig>(config: R) =>
  createRoute({
    ...config,
    security: [{ session: [] }],
    "x-access": "staff",
    middleware: [checkAnswers(config.responses), requireStaff] as const,
  });

export const actorOf = (c: Context<AppEnv>) => c.get("actor");
