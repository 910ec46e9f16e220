import { config } from "@gym/core/config";
import { OpenAPIHono } from "@hono/zod-openapi";
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
export interface AppOptions {
  /**
   * What only a local process mounts (local/app.ts: the dev routes, the simulated providers'
   * pages, their webhooks delivered in-process); applied only when APP_ENV names local mode.
   */
  local?: (app: OpenAPIHono<AppEnv>) => void;
}

type Router = OpenAPIHono<AppEnv>;

/**
 * Every router of the API, in the order they are mounted, with the first path segment of each of
 * its routes (`/api/<segment>/…`) and its module (app.test.ts checks both against the routers;
 * the bench measures each part by them). Each is imported on the first request under one of its
 * segments, so a cold start loads only what that request needs (docs/architecture.md "Bundling
 * and budgets").
 */
export const routers: { segments: string[]; module: string; load: () => Promise<Router> }[] = [
  {
    segments: ["health"],
    module: "./routers/health",
    load: () => import("./routers/health").then((m) => m.healthRouter),
  },
  {
    segments: ["sites"],
    module: "./routers/sites",
    load: () => import("./routers/sites").then((m) => m.sitesRouter),
  },
  {
    segments: [
      "login",
      "email",
      "two-factor-authentication",
      "logout",
      "forgot-password",
      "validate-link",
      "reset-password",
    ],
    module: "./routers/auth",
    load: () => import("./routers/auth").then((m) => m.authRouter),
  },
  {
    segments: ["me", "organisations", "gyms"],
    module: "./routers/me",
    load: () => import("./routers/me").then((m) => m.meRouter),
  },
  {
    segments: ["gyms", "files"],
    module: "./routers/gyms",
    load: () => import("./routers/gyms").then((m) => m.gymsRouter),
  },
  {
    segments: ["organisations"],
    module: "./routers/organisations",
    load: () => import("./routers/organisations").then((m) => m.organisationsRouter),
  },
  {
    segments: ["gyms", "stripe", "akahu", "organisations"],
    module: "./routers/providers",
    load: () => import("./routers/providers").then((m) => m.providersRouter),
  },
  {
    segments: ["webhook-calls", "organisations"],
    module: "./routers/webhook-calls",
    load: () => import("./routers/webhook-calls").then((m) => m.webhookCallsRouter),
  },
  {
    segments: ["stats", "user-breakdown", "cost-and-visit-breakdown"],
    module: "./routers/dashboard",
    load: () => import("./routers/dashboard").then((m) => m.dashboardRouter),
  },
  {
    segments: ["webhooks"],
    module: "../webhooks/router",
    load: () => import("../webhooks/router").then((m) => m.webhooksRouter),
  },
  {
    segments: ["gyms", "offerings", "offering-options"],
    module: "./routers/offerings",
    load: () => import("./routers/offerings").then((m) => m.offeringsRouter),
  },
  {
    segments: ["organisations", "offerings", "prices"],
    module: "./routers/prices",
    load: () => import("./routers/prices").then((m) => m.pricesRouter),
  },
  {
    segments: ["promo-codes"],
    module: "./routers/promo-codes",
    load: () => import("./routers/promo-codes").then((m) => m.promoCodesRouter),
  },
  {
    segments: ["payments", "users", "expected-payments-debugging"],
    module: "./routers/payments",
    load: () => import("./routers/payments").then((m) => m.paymentsRouter),
  },
  {
    segments: ["subscriptions", "me", "surcharge-total"],
    module: "./routers/subscriptions",
    load: () => import("./routers/subscriptions").then((m) => m.subscriptionsRouter),
  },
  {
    segments: ["subscriptions", "users"],
    module: "./routers/lifecycle",
    load: () => import("./routers/lifecycle").then((m) => m.lifecycleRouter),
  },
  {
    segments: ["me"],
    module: "./routers/self-service",
    load: () => import("./routers/self-service").then((m) => m.selfServiceRouter),
  },
  {
    segments: ["members", "search"],
    module: "./routers/members",
    load: () => import("./routers/members").then((m) => m.membersRouter),
  },
  {
    segments: ["organisations", "staff"],
    module: "./routers/staff",
    load: () => import("./routers/staff").then((m) => m.staffRouter),
  },
  {
    segments: ["members", "organisations"],
    module: "./routers/pif",
    load: () => import("./routers/pif").then((m) => m.pifRouter),
  },
  {
    segments: ["prices"],
    module: "./routers/price-change",
    load: () => import("./routers/price-change").then((m) => m.priceChangeRouter),
  },
  {
    segments: ["join", "unique-email", "register", "me", "profile-picture", "files", "organisations"],
    module: "./routers/registration",
    load: () => import("./routers/registration").then((m) => m.registrationRouter),
  },
  {
    segments: ["members", "users", "staff", "visits", "active-users"],
    module: "./routers/access",
    load: () => import("./routers/access").then((m) => m.accessRouter),
  },
  {
    segments: ["me", "email-change", "invitations"],
    module: "./routers/account",
    load: () => import("./routers/account").then((m) => m.accountRouter),
  },
  {
    segments: ["organisations", "accounting", "payouts"],
    module: "./routers/accounting",
    load: () => import("./routers/accounting").then((m) => m.accountingRouter),
  },
  {
    segments: ["unsubscribe", "me", "payments"],
    module: "./routers/communications",
    load: () => import("./routers/communications").then((m) => m.communicationsRouter),
  },
];

/** The local extras (AppOptions.local) are all under /api/dev. */
const LOCAL_SEGMENT = "dev";
const OPENAPI_SEGMENT = "openapi.json";

/**
 * The one API app: every call under /api. The same routes run on Lambda (lambda.ts, after
 * `createCore` with the production providers) and in the local Node server (local/app.ts, with
 * the simulated ones and the local extras).
 *
 * The app answers each request with the part of it for the request's first path segment: the
 * whole middleware chain and error handling, and the routers with routes under that segment, in
 * the order above (so overlapping routes resolve as they would in one app). Each part is built on
 * its segment's first request; `/api/openapi.json` builds one with every router.
 */
export function createApp(options: AppOptions = {}) {
  const parts = new Map<string, Promise<Router>>();
  const part = (segment: string) => {
    let built = parts.get(segment);
    if (!built) {
      built = buildPart(segment, options);
      // A failed import is not kept: the next request tries again.
      built.catch(() => parts.delete(segment));
      parts.set(segment, built);
    }
    return built;
  };
  const app = new OpenAPIHono<AppEnv>();
  app.all("*", async (c) => {
    const segment = /^\/api\/([^/]*)/.exec(c.req.path)?.[1] ?? "";
    const known =
      segment === OPENAPI_SEGMENT ||
      (segment === LOCAL_SEGMENT && config.isLocal && options.local) ||
      routers.some((router) => router.segments.includes(segment));
    return (await part(known ? segment : "")).fetch(c.req.raw, c.env);
  });
  return app;
}

async function buildPart(segment: string, options: AppOptions): Promise<Router> {
  const all = segment === OPENAPI_SEGMENT;
  const mounted = await Promise.all(
    routers.filter((router) => all || router.segments.includes(segment)).map((router) => router.load()),
  );
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

  for (const router of mounted) app.route("/", router);
  if (config.isLocal && (all || segment === LOCAL_SEGMENT)) options.local?.(app);
  if (!all) return app;

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
