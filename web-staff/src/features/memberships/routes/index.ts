import type { RouteObject } from "react-router-dom";

/**
 * The membership lifecycle pages (spec 001 §2): /members/pif (members.create, a pay-in-full member)
 * and /members/change-price (members.change-price.index, a bulk price change). The actions on one
 * membership (pause, cancel, undo, start now, manual payment) are components/SubscriptionCard.tsx,
 * shown on the member's page.
 */
export const membershipsRoutes: RouteObject[] = [
  { path: "members/pif", lazy: () => import("./pif"), handle: { admins: true } },
  { path: "members/change-price", lazy: () => import("./change-price"), handle: { admins: true } },
];
