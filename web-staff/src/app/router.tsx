import { NotFoundPage, RouteErrorPage } from "@gym/web/app";
import { PageLoader } from "@gym/web/ui";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import { comingSoonRoutes, featureRoutes, splitByLayout } from "./feature-routes";
import { GuestOnly, RequireStaff } from "./guards";
import { RootLayout } from "./RootLayout";

/**
 * The staff host's routes (spec 000 §2). Each page is its own chunk (`lazy`), so the first load
 * carries only React, the router, the providers and the guards.
 *
 * - Guest-only pages (sign-in, passwords, two-factor, welcome) send someone signed in onward.
 * - Public pages (privacy policy, contact) are open to everyone.
 * - Staff pages sit behind {@link RequireStaff}; most inside the layout (sidebar and top bar).
 *   An unknown address is answered inside the layout too (a guest signs in first, then sees it).
 *   Feature pages arrive from `features/<feature>/routes/index.ts` (see feature-routes.ts).
 */
export function buildRoutes(features: RouteObject[] = featureRoutes): RouteObject[] {
  const { withLayout, bare } = splitByLayout(features);
  return [
    {
      element: <RootLayout />,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <PageLoader />,
      children: [
        { index: true, element: <Navigate to="/login" replace /> },

        {
          element: <GuestOnly />,
          children: [
            { path: "login", lazy: () => import("../features/auth/routes/login") },
            { path: "forgot-password", lazy: () => import("../features/auth/routes/forgot-password") },
            {
              path: "reset-password",
              lazy: () =>
                import("../features/auth/routes/reset-password").then((m) => ({
                  Component: m.ResetPasswordRoute,
                })),
            },
            {
              path: "set-password",
              lazy: () =>
                import("../features/auth/routes/reset-password").then((m) => ({
                  Component: m.SetPasswordRoute,
                })),
            },
            { path: "welcome", lazy: () => import("../features/auth/routes/welcome") },
            { path: "two-factor-authentication", lazy: () => import("../features/auth/routes/two-factor") },
          ],
        },

        // An account's emailed links: anyone holding the link, signed in or not.
        ...(["invitation", "confirm-email", "undo-email"] as const).map((path) => ({
          path,
          lazy: () =>
            import("../features/account/routes/account-links").then((m) => ({
              Component: {
                invitation: m.InvitationRoute,
                "confirm-email": m.ConfirmEmailRoute,
                "undo-email": m.UndoEmailRoute,
              }[path],
            })),
        })),

        { path: "legal/privacy-policy", lazy: () => import("../features/public/routes/privacy-policy") },
        { path: "contact-us", lazy: () => import("../features/public/routes/contact-us") },

        // Local development only: the API answers 404 elsewhere.
        { path: "dev/mail", lazy: () => import("../features/dev-mail/routes/dev-mail") },

        {
          element: <RequireStaff />,
          children: [
            {
              lazy: () => import("../features/shell/routes/layout"),
              children: [
                { path: "dashboard", lazy: () => import("../features/dashboard/routes/dashboard") },
                ...withLayout,
                ...comingSoonRoutes(withLayout),
                // An unknown address for a signed-in person stays inside the app, with a way back.
                {
                  path: "*",
                  element: <NotFoundPage homeHref="/dashboard" homeLabel="Back to the dashboard" />,
                },
              ],
            },
            ...bare,
          ],
        },
      ],
    },
  ];
}

export const routes: RouteObject[] = buildRoutes();

export function createRouter() {
  return createBrowserRouter(routes);
}
