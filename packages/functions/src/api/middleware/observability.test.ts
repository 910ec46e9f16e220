import { clearRecentMetrics, recentMetrics } from "@gym/core/metrics";
import { describe, expect, it, vi } from "vitest";
import { signIn, useSeededApi } from "../../../../../tests/support/api";
import { HttpClient } from "../../../../../tests/support/http";

/**
 * What an operator gets from a request (docs/operations.md): its metrics (route template,
 * status class, latency), and the request id and organisation on every log line of it.
 */
const api = useSeededApi();

/** Log lines written while `fn` runs (stdout and stderr), parsed. */
async function logged<T>(fn: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  vi.stubEnv("LOG_LEVEL", "debug");
  const raw: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    raw.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  };
  const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
  try {
    return { result: await fn(), lines: raw.flatMap((l) => (l.startsWith("{") ? [JSON.parse(l)] : [])) };
  } finally {
    out.mockRestore();
    err.mockRestore();
    vi.unstubAllEnvs();
  }
}

describe("request observability", () => {
  it("emits ApiRequests and ApiLatency with the route template (not the ids) and the status class", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    clearRecentMetrics();
    const missing = "00000000-0000-4000-8000-000000000000";
    const answer = await admin.get(`/api/members/${missing}`);
    expect(answer.status).toBe(404);
    const requestId = answer.headers.get("x-request-id");
    const mine = recentMetrics()
      .map((m) => m.emf)
      .filter((emf) => emf.request_id === requestId);
    const requests = mine.find((emf) => "ApiRequests" in emf);
    expect(requests).toMatchObject({
      ApiRequests: 1,
      StatusClass: "4xx",
      route: "/api/members/:id",
      method: "GET",
      status: 404,
      organisation_id: api.seed.organisations.harbour.organisation_id,
    });
    expect(JSON.stringify(mine)).not.toContain(missing);
    const latency = mine.find((emf) => "ApiLatency" in emf);
    expect(typeof latency?.ApiLatency).toBe("number");
  });

  it("puts the request id and the organisation on every log line of a request", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const { result, lines } = await logged(() => admin.get("/api/me"));
    const requestId = result.headers.get("x-request-id");
    const ofRequest = lines.filter((l) => l.request_id === requestId);
    expect(ofRequest.map((l) => l.message)).toContain("request");
    for (const line of ofRequest) {
      expect(line.organisation_id).toBe(api.seed.organisations.harbour.organisation_id);
    }
    // Nothing of this request was written without its id.
    expect(lines.filter((l) => l.route === "/api/me" && l.request_id !== requestId)).toEqual([]);
  });

  it("counts unknown paths as one `unmatched` route, and a refused webhook signature by outcome", async () => {
    const client = new HttpClient(api.url);
    clearRecentMetrics();
    expect((await client.get("/api/no-such-thing/123")).status).toBe(404);
    const refused = await client.post(
      "/api/webhooks/stripe",
      { id: "evt_1" },
      { "Stripe-Signature": "t=1,v1=bad" },
    );
    expect(refused.status).toBe(400);
    const emfs = recentMetrics().map((m) => m.emf);
    expect(emfs.find((e) => "ApiRequests" in e && e.status === 404)).toMatchObject({ route: "unmatched" });
    expect(emfs.find((e) => "WebhookReceipts" in e)).toMatchObject({
      Provider: "stripe",
      Outcome: "refused_signature",
      WebhookReceipts: 1,
    });
  });

  it("logs a job run with its own request id and emits its heartbeat, shown at /api/dev/metrics", async () => {
    const client = new HttpClient(api.url, { xhr: true });
    clearRecentMetrics();
    const { result, lines } = await logged(() => client.post("/api/dev/jobs/grace-expiry", {}));
    expect(result.status).toBe(200);
    const finished = lines.find((l) => l.message === "job finished");
    expect(finished).toMatchObject({ job: "grace-expiry" });
    expect(finished?.request_id).toEqual(expect.any(String));
    const run = recentMetrics()
      .map((m) => m.emf)
      .find((e) => "JobRuns" in e);
    expect(run).toMatchObject({
      Job: "grace-expiry",
      JobRuns: 1,
      JobErrors: 0,
      Examined: expect.any(Number),
    });
    expect(run?.request_id).toBe(finished?.request_id);

    const page = await client.get("/api/dev/metrics");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/plain/);
    expect(String(page.body)).toMatch(/JobRuns=1 JobErrors=0 .*\[Job=grace-expiry\]/);
  });
});
