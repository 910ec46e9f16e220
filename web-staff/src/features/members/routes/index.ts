import type { RouteObject } from "react-router-dom";

/**
 * The members pages (spec 001 §2): /members (members.index), /members/{id} (members.show) and
 * /members/{id}/activity (members.activity). /members/pif (members.create) belongs to the
 * lifecycle work; the list links to it.
 */
export const membersRoutes: RouteObject[] = [
  { path: "members", lazy: () => import("./members-list") },
  { path: "members/:id", lazy: () => import("./member-show") },
  { path: "members/:id/activity", lazy: () => import("./member-activity") },
];
