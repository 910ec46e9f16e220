import { OpenAPIHono } from "@hono/zod-openapi";
import { config } from "@gym/core/config";
import type { AppEnv } from "./context";
import { handleError, notFound } from "./middleware/errors";
import { requestContext, requireXhrHeader } from "./middleware/request";
import { devRouter } from "./routers/dev";
import { healthRouter } from "./routers/health";

/**
 * The one API app: every call under /api. The same object runs on Lambda (lambda.ts) and in
 * the local Node server (local/server.ts).
 */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>().basePath("/api");
  app.use("*", requestContext);
  app.use("*", requireXhrHeader);
  app.onError(handleError);
  app.notFound(notFound);

  app.route("/", healthRouter);
  if (config.isLocal) app.route("/", devRouter);

  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: { title: "Gym platform API", version: "1.0.0", description: "Staff back-office and member join API." },
  });
  return app;
}

export const app = createApp();
