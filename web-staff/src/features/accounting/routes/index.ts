import type { RouteObject } from "react-router-dom";

/**
 * The books (docs/accounting.md), organisation admins only: /accounting (export the Xero journals,
 * the GST summary) and /accounting/accounts (the account mapping).
 */
export const accountingRoutes: RouteObject[] = [
  { path: "accounting", lazy: () => import("./accounting-export"), handle: { organisationAdmin: true } },
  {
    path: "accounting/accounts",
    lazy: () => import("./accounting-accounts"),
    handle: { organisationAdmin: true },
  },
];
