import type { RouteObject } from "react-router-dom";

/**
 * The gym pages (spec 000 §2) for the staff layout to mount: the list, a gym, its settings, and
 * the return point of the card-provider connection. Named route: gyms.index.
 */
export const gymsRoutes: RouteObject[] = [
  { path: "gyms", lazy: () => import("./gyms-list") },
  // A gym's page is for its admins (gym admins of it, organisation admins): a trainer goes to the dashboard.
  { path: "gyms/:id", lazy: () => import("./gym-show"), handle: { admins: true } },
  { path: "gyms/:id/edit", lazy: () => import("./gym-edit"), handle: { admins: true } },
  { path: "stripe/callback", lazy: () => import("./stripe-callback") },
];
