import type { RouteObject } from "react-router-dom";

/**
 * The books (docs/accounting.md), organisation admins only: /accounting (export the Xero journals,
 * the GST summary), /accounting/accounts (the account mapping) and /accounting/payouts (each
 * deposit with the payments inside it).
 */
export const accountingRoutes: RouteObject[] = [
  { path: "accounting", lazy: () => import("./accounting-export"), handle: { organisationAdmin: true } },
  {
    path: "accounting/accounts",
    lazy: () => import("./accounting-accounts"),
    handle: { organisationAdmin: true },
  },
  {
    path: "accounting/payouts",
    lazy: () => import("./accounting-payouts"),
    handle: { organisationAdmin: true },
  },
];
