import type { RouteObject } from "react-router-dom";

/** Visits and door access pages: /visits and /active-user-debugging (organisation admins). */
export const visitsRoutes: RouteObject[] = [
  { path: "visits", lazy: () => import("./visits-list") },
  {
    path: "active-user-debugging",
    lazy: () => import("./active-user-debugging"),
    handle: { organisationAdmin: true },
  },
];
