import type { RouteObject } from "react-router-dom";

/** Promo codes (docs/offers.md): the organisation's, so organisation admins only. */
export const promoCodesRoutes: RouteObject[] = [
  { path: "promo-codes", lazy: () => import("./promo-codes"), handle: { organisationAdmin: true } },
];
