import type { RouteObject } from "react-router-dom";

/**
 * The payments pages (spec 001 §2): /payments (payments.index) for staff, and
 * /expected-payments-debugging for organisation admins.
 */
export const paymentsRoutes: RouteObject[] = [
  { path: "payments", lazy: () => import("./payments-list"), handle: { admins: true } },
  { path: "payments/:paymentId/receipt", lazy: () => import("./receipt"), handle: { admins: true } },
  {
    path: "expected-payments-debugging",
    lazy: () => import("./expected-payments"),
    handle: { organisationAdmin: true },
  },
];
