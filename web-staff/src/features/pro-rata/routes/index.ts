import type { RouteObject } from "react-router-dom";

/** The pro-rata calculator (spec 001 §2, named calculate-pro-rata), for the signed-in staff layout to mount. */
export const proRataRoutes: RouteObject[] = [
  { path: "calculate-pro-rata", lazy: () => import("./calculate-pro-rata"), handle: { admins: true } },
];
