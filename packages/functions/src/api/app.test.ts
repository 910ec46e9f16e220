import { describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";

const api = useTestApi();

describe("API conventions", () => {
  it("reports the database as reachable on /api/health", async () => {
    const res = await api.client().get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("ok");
    expect(res.body.data.database.reachable).toBe(true);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("echoes a caller's request id", async () => {
    const res = await api.client().get("/api/health", { "X-Request-Id": "trace-123" });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
  });

  it("refuses a state-changing call without X-Requested-With", async () => {
    const res = await api.client({ xhr: false }).post("/api/health", {});
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("csrf_header_missing");
    expect(res.body.message).toMatch(/X-Requested-With/);
  });

  it("answers unknown paths with 404 in the error shape", async () => {
    const res = await api.client().get("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", message: expect.any(String) });
  });

  it("serves an OpenAPI document generated from the route schemas", async () => {
    const res = await api.client().get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(["/api/health", "/api/dev/mail"]));
  });

  it("keeps every email sent locally in the developer mailbox, newest first", async () => {
    const { sendEmail } = await import("@gym/core/email/port");
    await sendEmail({ to: "first@example.com", subject: "First", text: "one" });
    await sendEmail({ to: "second@example.com", subject: "Second", text: "two" });
    const res = await api.client().get("/api/dev/mail");
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { subject: string }) => m.subject)).toEqual(["Second", "First"]);
  });

  it("finds every email to one address with ?to=, however many came after it", async () => {
    const { sendEmail } = await import("@gym/core/email/port");
    await sendEmail({ to: "early@example.com", subject: "Early", text: "one" });
    for (let i = 0; i < 105; i++)
      await sendEmail({ to: `crowd${i}@example.com`, subject: "Crowd", text: "x" });
    expect((await api.client().get("/api/dev/mail")).body.data).toHaveLength(100);
    const mine = await api.client().get("/api/dev/mail?to=early@example.com");
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((m: { subject: string }) => m.subject)).toEqual(["Early"]);
    expect((await api.client().get("/api/dev/mail?to=not-an-address")).status).toBe(422);
  }, 60_000);

  it("runs every scheduled job by its schedule name on POST /api/dev/jobs/{job}, and no other", async () => {
    const { jobNames } = await import("@gym/core/jobs/schedule");
    for (const job of ["member-notices", "door-access"]) expect(jobNames).toContain(job);
    for (const job of jobNames) {
      const res = await api.client().post(`/api/dev/jobs/${job}`, {});
      expect(res.status, `${job}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect((await api.client().post("/api/dev/jobs/no-such-job", {})).status).toBe(422);
  }, 120_000);
});

describe("site redirects", () => {
  it("sends the browser to a path on the other site, and never to another host", async () => {
    const res = await api.client().get("/api/sites/join?path=/register?x=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://localhost:3001/register?x=1");
    expect((await api.client().get("/api/sites/staff")).headers.get("location")).toBe(
      "http://localhost:3000/",
    );
    expect((await api.client().get("/api/sites/join?path=//evil.example")).status).toBe(422);
    expect((await api.client().get("/api/sites/elsewhere")).status).toBe(422);
  });
});

describe("routers loaded per path segment", () => {
  const segmentsOf = (router: { routes: { path: string }[] }) =>
    [...new Set(router.routes.filter((r) => r.path !== "/*").map((r) => r.path.split("/")[1]))].sort();

  it("declares, for every router, exactly the first path segments of its routes", async () => {
    const { routers } = await import("./app");
    for (const { segments, module, load } of routers) {
      const router = await load();
      expect(segmentsOf(router), module).toEqual([...segments].sort());
      expect(Object.values(await import(/* @vite-ignore */ module)), module).toContain(router);
    }
  });

  it("mounts the local extras under /api/dev only", async () => {
    const { devRouter } = await import("./routers/dev");
    const { simulatorRouter } = await import("../local/simulators/router");
    expect(segmentsOf(devRouter)).toEqual(["dev"]);
    expect(segmentsOf(simulatorRouter)).toEqual(["dev"]);
  });

  it("answers every router's routes, whichever part of the app a first request built", async () => {
    // Each path answers from its own part (not a 404 from the empty one); the document lists all.
    for (const path of [
      "/api/members",
      "/api/offerings/x/prices",
      "/api/organisations/x/prices",
      "/api/webhook-calls",
      "/api/me/active-subscription",
    ]) {
      expect((await api.client().get(path)).body.error, path).not.toBe("not_found");
    }
    const { routers } = await import("./app");
    const documented = Object.keys((await api.client().get("/api/openapi.json")).body.paths);
    for (const { load } of routers) {
      for (const route of (await load()).routes.filter((r) => r.path !== "/*" && r.method !== "ALL")) {
        const path = `/api${route.path.replace(/:(\w+)/g, "{$1}")}`;
        expect(documented, path).toContain(path);
      }
    }
  });
});
