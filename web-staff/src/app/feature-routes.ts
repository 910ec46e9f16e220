import { matchRoutes, type RouteObject } from "react-router-dom";
import { allLinks } from "../features/shell/navigation";
import type { RouteHandle } from "./guards";

/**
 * Staff pages from the feature folders. Each feature that has screens exports its routes from
 * `features/<feature>/routes/index.ts` as `export const <feature>Routes: RouteObject[]` (paths
 * relative, no leading slash, lazy modules). They are picked up here without touching the app:
 * every such export is mounted behind the staff guard, inside the layout unless a route's
 * `handle` says `useLayout: false`. Add `handle: { organisationAdmin: true }` for admin-only
 * pages.
 */
export type FeatureModule = Record<string, unknown>;

/** The `…Routes` arrays of the feature modules, in file order. */
export function collectFeatureRoutes(modules: Record<string, FeatureModule>): RouteObject[] {
  const routes: RouteObject[] = [];
  for (const file of Object.keys(modules).sort()) {
    for (const [name, value] of Object.entries(modules[file])) {
      if (name.endsWith("Routes") && Array.isArray(value)) routes.push(...(value as RouteObject[]));
    }
  }
  return routes;
}

/** Splits routes into those shown in the layout and those shown bare (still signed in). */
export function splitByLayout(routes: RouteObject[]): { withLayout: RouteObject[]; bare: RouteObject[] } {
  const bare = routes.filter((route) => (route.handle as RouteHandle | undefined)?.useLayout === false);
  return { withLayout: routes.filter((route) => !bare.includes(route)), bare };
}

/**
 * A "coming soon" page for each sidebar entry no feature serves yet, so the sidebar never leads
 * to a 404. Once a feature mounts the path, its page wins and this one disappears.
 */
export function comingSoonRoutes(served: RouteObject[]): RouteObject[] {
  return allLinks()
    .filter((link) => link.path !== "/dashboard" && !matchRoutes(served, link.path))
    .map((link) => ({
      path: link.path.slice(1),
      lazy: () => import("../features/shell/routes/coming-soon"),
    }));
}

const modules = import.meta.glob<FeatureModule>("../features/*/routes/index.ts", { eager: true });

export const featureRoutes: RouteObject[] = collectFeatureRoutes(modules);
