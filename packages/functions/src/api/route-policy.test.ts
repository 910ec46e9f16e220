/**
 * The route table (route-policy.ts) covers the API exactly, and docs/access-control.md shows it as
 * it is. What each row means when called is `matrix.test.ts`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createApp } from "./app";
import { policyTableMarkdown, routePolicy } from "./route-policy";

async function documentedRoutes(): Promise<{ route: string; policy: unknown }[]> {
  const res = await createApp().request("/api/openapi.json", {
    headers: { "X-Requested-With": "XMLHttpRequest" },
  });
  const doc = (await res.json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, policy: op["x-policy"] })),
  );
}

describe("the route table", () => {
  it("has a row for every route of the OpenAPI document, and no row without a route", async () => {
    const routes = await documentedRoutes();
    const missing = routes.filter((r) => !(r.route in routePolicy)).map((r) => r.route);
    expect(missing, "add these routes' rows to packages/functions/src/api/route-policy.ts").toEqual([]);
    const stale = Object.keys(routePolicy).filter((route) => !routes.some((r) => r.route === route));
    expect(stale, "rows whose route is gone").toEqual([]);
    // Each route's helper found its row (so the row is what is enforced).
    for (const r of routes) expect(r.policy, r.route).toBe(routePolicy[r.route]);
  });

  it("is shown as it is in docs/access-control.md", () => {
    const doc = readFileSync(new URL("../../../../docs/access-control.md", import.meta.url), "utf8");
    const start = "<!-- route-policy:start (generated from packages/functions/src/api/route-policy.ts) -->";
    const end = "<!-- route-policy:end -->";
    const shown = doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end)).trim();
    expect(doc.includes(start) && doc.includes(end), "the docs table's markers").toBe(true);
    expect(shown, "paste policyTableMarkdown() between the markers").toBe(policyTableMarkdown());
  });
});
