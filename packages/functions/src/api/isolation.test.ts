/**
 * Walks every route in the OpenAPI document, so a route added later is covered the moment it
 * exists:
 *  - without a session, every non-public route answers 401;
 *  - with a session still waiting for its code, every user and staff route answers 400
 *    not_two_factor_authenticated;
 *  - the admin of another organisation gets no 2xx for any route that names this organisation's
 *    ids, and cannot tell this organisation's ids from ids that do not exist (same status). Write
 *    routes get their body's documented example, so the call passes validation and reaches the
 *    tenancy check: the answer must be 403 or 404, never a 422 that stopped short of it.
 * Every answer is also checked against its declared schema (middleware/answers.ts, test mode).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signIn, useTestApi } from "../../../../tests/support/api";
import { HttpClient } from "../../../../tests/support/http";
import {
  type DocumentedOperation,
  documentedBody,
  documentedOperations,
} from "../../../../tests/support/openapi-operations";

const api = useTestApi();
// The demo data the walks use (seeding takes half a minute on two cores: not part of any one walk).
beforeAll(async () => {
  const { seedIfEmpty } = await import("../local/seed/index");
  await seedIfEmpty();
}, 180_000);

type Operation = DocumentedOperation;
const operations = () => documentedOperations(api.url);

const fill = (path: string, ids: (segment: string, param: string) => string) =>
  path.replace(/\{([^}]+)\}/g, (_, param: string, offset: number) => {
    const before = path.slice(0, offset).split("/").filter(Boolean);
    return encodeURIComponent(ids(before[before.length - 1] ?? "", param));
  });

const call = (client: HttpClient, op: Operation, path: string) =>
  client.request(op.method, path, documentedBody(op), op.headers);

describe("every route in the OpenAPI document", () => {
  it("answers 401 without a session (public routes excepted)", async () => {
    const ops = (await operations()).filter((op) => op.access !== "public");
    expect(ops.length).toBeGreaterThan(3);
    const anonymous = new HttpClient(api.url);
    for (const op of ops) {
      const res = await call(
        anonymous,
        op,
        fill(op.path, () => "01HZZZZZZZZZZZZZZZZZZZZZZZ"),
      );
      expect(res.status, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it("answers 400 not_two_factor_authenticated to a session waiting for its code", async () => {
    const pending = new HttpClient(api.url);
    expect(
      (await pending.post("/api/login", { email: "trainer@example.com", password: "demo-password" })).status,
    ).toBe(200);
    for (const op of (await operations()).filter((o) => o.access === "user" || o.access === "staff")) {
      const res = await call(
        pending,
        op,
        fill(op.path, () => "01HZZZZZZZZZZZZZZZZZZZZZZZ"),
      );
      expect(res.status, `${op.method} ${op.path}`).toBe(400);
      expect(res.body.error, `${op.method} ${op.path}`).toBe("not_two_factor_authenticated");
    }
  });

  it("gives another organisation's admin nothing of this organisation's records", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const outsider = await signIn(api.url, "owner@example.org");
    const me = (await admin.get("/api/me")).body.data;

    // This organisation's ids, by the path segment that names them; learnt through its own admin.
    const known: Record<string, string[]> = {
      organisations: [me.current_organisation.id],
      gyms: me.gyms.map((g: { id: string }) => g.id),
    };
    for (const [segment, listPath] of [
      ["offerings", "/api/offerings"],
      ["prices", `/api/organisations/${me.current_organisation.id}/prices`],
      ["members", "/api/members"],
      ["users", "/api/members"],
      ["staff", `/api/organisations/${me.current_organisation.id}/staff`],
      ["payments", "/api/payments"],
      ["subscriptions", "/api/subscriptions"],
    ] as const) {
      const res = await admin.get(listPath);
      if (res.status === 200 && Array.isArray(res.body.data))
        known[segment] = res.body.data.map((r: { id: string }) => r.id);
    }
    const ours = (segment: string) => known[segment]?.[0] ?? known.gyms[0];
    const missing = () => "01HZZZZZZZZZZZZZZZZZZZZZZZ";

    const withIds = (await operations()).filter((op) => op.access !== "public" && op.path.includes("{"));
    expect(withIds.length).toBeGreaterThan(1);
    for (const op of withIds) {
      const label = `${op.method} ${op.path}`;
      const theirs = await call(
        outsider,
        op,
        fill(op.path, (segment) => ours(segment)),
      );
      const none = await call(outsider, op, fill(op.path, missing));
      expect(theirs.status, label).toBeGreaterThanOrEqual(400);
      expect([403, 404], `${label}: must reach the tenancy check (give its body an example)`).toContain(
        theirs.status,
      );
      expect(theirs.status, `${label}: another organisation's id must look like a missing one`).toBe(
        none.status,
      );
    }
  });
});
