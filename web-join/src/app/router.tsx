import { lazy, Suspense } from "react";
import { createBrowserRouter, type RouteObject, redirect } from "react-router-dom";
import { preloadJoinOptions } from "../features/register/api/join-options";
import { PageLoader } from "./PageLoader";
import { RootLayout } from "./RootLayout";

const page = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load });

// The error and not-found pages load only when shown: their buttons, titles and icons stay out of
// the first download (issue 12's initial-JS budget).
const errorPages = () => import("@gym/web/app/ErrorPages");
const RouteErrorPage = lazy(() => errorPages().then((m) => ({ default: m.RouteErrorPage })));
const notFound = () =>
  errorPages().then((m) => ({
    Component: () => <m.NotFoundPage homeHref="/" homeLabel="Start registration" />,
  }));

/**
 * The join host's routes (spec 000 §2): `/` registers, `/verification-code` takes the emailed
 * code, then the steps in order behind the registration guard (spec 000 §4). Each page is its
 * own chunk (`lazy`), so the first load carries only React, the router and the providers.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: (
      <Suspense fallback={<PageLoader />}>
        <RouteErrorPage />
      </Suspense>
    ),
    hydrateFallbackElement: <PageLoader />,
    children: [
      {
        index: true,
        loader: preloadJoinOptions,
        ...page(() => import("../features/register/routes/register")),
      },
      { path: "verification-code", ...page(() => import("../features/register/routes/verification-code")) },
      {
        // Lazy too: its steps and registration calls stay out of the first download.
        ...page(() =>
          import("../features/register/components/RegistrationGuard").then((m) => ({
            Component: m.RegistrationGuard,
          })),
        ),
        children: [
          { path: "take-photo", ...page(() => import("../features/register/routes/take-photo")) },
          {
            path: "choose-payment-method",
            ...page(() => import("../features/register/routes/choose-payment-method")),
          },
          { path: "connect-akahu", ...page(() => import("../features/register/routes/connect-akahu")) },
          { path: "bank-account-connected", ...page(() => import("../features/register/routes/connected")) },
          { path: "card-details", ...page(() => import("../features/register/routes/card-details")) },
          { path: "card-connected", ...page(() => import("../features/register/routes/connected")) },
          {
            path: "confirm-subscription",
            ...page(() => import("../features/register/routes/confirm-subscription")),
          },
          { path: "welcome-to-gym", ...page(() => import("../features/register/routes/welcome")) },
          { path: "rejoin", ...page(() => import("../features/register/routes/rejoin")) },
          { path: "membership", ...page(() => import("../features/membership/routes/membership")) },
          {
            path: "membership/receipts/:paymentId",
            ...page(() => import("../features/membership/routes/receipt")),
          },
        ],
      },
      // The address the payment emails link to ("Update your payment method"): the payment step,
      // behind the guard (signed out: sign in, then back here).
      { path: "payment-method", loader: () => redirect("/choose-payment-method") },
      // Passwords, for members on their own site (issue 35): "Forgot password?" on the sign-in
      // page, and the pages the reset and pay-in-full invitation emails open.
      { path: "forgot-password", ...page(() => import("../features/auth/routes/forgot-password")) },
      { path: "reset-password", ...page(() => import("../features/auth/routes/password-link")) },
      { path: "set-password", ...page(() => import("../features/auth/routes/password-link")) },
      // A gym's invitation to an existing account (a pay-in-full membership), accepted or declined.
      { path: "invitation", ...page(() => import("../features/auth/routes/invitation")) },
      // An optional email's "Stop these emails" link (no sign-in: its token says who).
      { path: "unsubscribe", ...page(() => import("../features/membership/routes/unsubscribe")) },
      { path: "*", ...page(notFound) },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
