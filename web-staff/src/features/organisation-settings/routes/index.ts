import type { RouteObject } from "react-router-dom";

/** /organisation/settings (named route organisation.settings): organisation admins only. */
export const organisationSettingsRoutes: RouteObject[] = [
  {
    path: "organisation/settings",
    lazy: () => import("./organisation-settings"),
    handle: { organisationAdmin: true },
  },
];
