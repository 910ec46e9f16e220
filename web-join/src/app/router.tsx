import { NotFoundPage, RouteErrorPage } from "@gym/web/app";
import { PageLoader } from "@gym/web/ui";
import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { REGISTRATION_STEPS } from "../features/register/steps";
import { RootLayout } from "./RootLayout";

/**
 * The join host's routes: `/` registers, then the steps in order. Each page is its own chunk
 * (`lazy`), so the first load carries only React, the router and the providers.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, lazy: () => import("../features/register/routes/register") },
      ...REGISTRATION_STEPS.map(
        (step): RouteObject => ({
          path: step.path.slice(1),
          lazy: () => import("../features/register/routes/step").then((m) => ({ Component: m.StepRoute })),
        }),
      ),
      { path: "*", element: <NotFoundPage homeHref="/" homeLabel="Start registration" /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
