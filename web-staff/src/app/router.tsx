import { NotFoundPage, RouteErrorPage } from "@gym/web/app";
import { PageLoader } from "@gym/web/ui";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import { RootLayout } from "./RootLayout";

/**
 * The staff host's routes. Each page is its own chunk (`lazy`), so the first load carries only
 * React, the router and the providers.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },

      // Public (guest) pages.
      { path: "login", lazy: () => import("../features/auth/routes/login") },
      {
        path: "forgot-password",
        lazy: () => import("../features/auth/routes/pending").then((m) => ({ Component: m.ForgotPassword })),
      },
      {
        path: "set-password",
        lazy: () => import("../features/auth/routes/pending").then((m) => ({ Component: m.SetPassword })),
      },
      {
        path: "reset-password",
        lazy: () => import("../features/auth/routes/pending").then((m) => ({ Component: m.ResetPassword })),
      },
      {
        path: "welcome",
        lazy: () => import("../features/auth/routes/pending").then((m) => ({ Component: m.Welcome })),
      },
      {
        path: "two-factor-authentication",
        lazy: () => import("../features/auth/routes/pending").then((m) => ({ Component: m.TwoFactor })),
      },

      // Local development only: the API answers 404 elsewhere.
      { path: "dev/mail", lazy: () => import("../features/dev-mail/routes/dev-mail") },

      { path: "*", element: <NotFoundPage homeHref="/login" homeLabel="Go to sign in" /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
