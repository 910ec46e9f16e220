import { config } from "@gym/core/config";
import { OpenAPIHono } from "@hono/zod-openapi";
import { webhooksRouter } from "../webhooks/router";
import type { AppEnv } from "./context";
import { loadSession } from "./middleware/auth";
import { handleError, notFound } from "./middleware/errors";
import { requestContext, requireXhrHeader } from "./middleware/request";
import {
  apiBodyLimit,
  apiHeaders,
  loopbackOnly,
  requireCloudFront,
  webhookBodyLimit,
} from "./middleware/security";
import { webhookRateLimit } from "./middleware/webhook-limit";
import { accessRouter } from "./routers/access";
import { authRouter } from "./routers/auth";
import { communicationsRouter } from "./routers/communications";
import { dashboardRouter } from "./routers/dashboard";
import { gymsRouter } from "./routers/gyms";
import { healthRouter } from "./routers/health";
import { lifecycleRouter } from "./routers/lifecycle";
import { meRouter } from "./routers/me";
import { membersRouter } from "./routers/members";
import { offeringsRouter } from "./routers/offerings";
import { organisationsRouter } from "./routers/organisations";
import { paymentsRouter } from "./routers/payments";
import { pifRouter } from "./routers/pif";
import { priceChangeRouter } from "./routers/price-change";
import { pricesRouter } from "./routers/prices";
import { providersRouter } from "./routers/providers";
import { registrationRouter } from "./routers/registration";
import { selfServiceRouter } from "./routers/self-service";
import { sitesRouter } from "./routers/sites";
import { staffRouter } from "./routers/staff";
import { subscriptionsRouter } from "./routers/subscriptions";
import { webhookCallsRouter } from "./routers/webhook-calls";

export interface AppOptions {
  /**
   * What only a local process mounts (local/app.ts: the dev routes, the simulated providers'
   * pages, their webhooks delivered in-process); applied only when APP_ENV names local mode.
   */
  local?: (app: OpenAPIHono<AppEnv>) => void;
}

/**
 * The one API app: every call under /api. The same routes run on Lambda (lambda.ts, after
 * `createCore` with the production providers) and in the local Node server (local/app.ts, with
 * the simulated ones and the local extras).
 */
export function createApp(options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>().basePath("/api");
  app.use("*", requestContext);
  app.use("*", apiHeaders);
  app.use("*", requireCloudFront);
  app.use("/webhooks/*", webhookRateLimit);
  app.use("/webhooks/*", webhookBodyLimit);
  app.use("*", apiBodyLimit);
  app.use("/dev/*", loopbackOnly);
  app.use("*", requireXhrHeader);
  app.use("*", loadSession);
  app.onError(handleError);
  app.notFound(notFound);

  app.route("/", healthRouter);
  app.route("/", sitesRouter);
  app.route("/", authRouter);
  app.route("/", meRouter);
  app.route("/", gymsRouter);
  app.route("/", organisationsRouter);
  app.route("/", providersRouter);
  app.route("/", webhookCallsRouter);
  app.route("/", dashboardRouter);
  app.route("/", webhooksRouter);
  app.route("/", offeringsRouter);
  app.route("/", pricesRouter);
  app.route("/", paymentsRouter);
  app.route("/", subscriptionsRouter);
  app.route("/", lifecycleRouter);
  app.route("/", selfServiceRouter);
  app.route("/", membersRouter);
  app.route("/", staffRouter);
  app.route("/", pifRouter);
  app.route("/", priceChangeRouter);
  app.route("/", registrationRouter);
  app.route("/", accessRouter);
  app.route("/", communicationsRouter);
  if (config.isLocal) options.local?.(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "gym_session",
  });
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Gym platform API",
      version: "1.0.0",
      description: "Staff back-office and member join API.",
    },
  });
  return app;
}
