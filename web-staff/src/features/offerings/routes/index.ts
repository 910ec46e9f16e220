import type { RouteObject } from "react-router-dom";

/**
 * The offerings pages (spec 001 §2), for the signed-in staff layout to mount: paths are relative
 * and each page is its own lazy chunk. Named routes: offerings.index, offerings.create,
 * offerings.show.
 */
export const offeringsRoutes: RouteObject[] = [
  { path: "offerings", lazy: () => import("./offerings-list") },
  { path: "offerings/create", lazy: () => import("./offering-create") },
  { path: "offerings/:id", lazy: () => import("./offering-show") },
  { path: "offerings/:id/edit", lazy: () => import("./offering-edit") },
];
