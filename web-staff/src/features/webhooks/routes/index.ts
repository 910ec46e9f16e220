import type { RouteObject } from "react-router-dom";

/** The webhook debugging pages (spec 000 §2): organisation admins only. */
export const webhooksRoutes: RouteObject[] = [
  { path: "webhooks", lazy: () => import("./webhooks"), handle: { organisationAdmin: true } },
  { path: "webhook-calls", lazy: () => import("./webhook-calls"), handle: { organisationAdmin: true } },
];
