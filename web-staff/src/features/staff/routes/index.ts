import type { RouteObject } from "react-router-dom";

/** The staff pages (spec 001 §2): /staff (staff.index) and /staff/{id} (staff.show), organisation admins. */
export const staffRoutes: RouteObject[] = [
  { path: "staff", lazy: () => import("./staff-list"), handle: { organisationAdmin: true } },
  { path: "staff/:id", lazy: () => import("./staff-show"), handle: { organisationAdmin: true } },
];
