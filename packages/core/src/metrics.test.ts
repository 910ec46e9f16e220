import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withLogContext } from "./log";
import {
  apiRequestMetric,
  clearRecentMetrics,
  dueNotClaimed,
  emitMetrics,
  formatMetric,
  jobRunMetric,
  metricNames,
  metricNamespace,
  recentMetrics,
  settlementMetric,
  webhookMetric,
} from "./metrics";

/**
 * Each metric the code emits, as CloudWatch would read it: a valid embedded-metric-format
 * document (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html)
 * in the stage's namespace, with the dimensions and values the alarms in infra/monitoring.ts watch.
 */
type Emf = Record<string, unknown> & {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
};

const docs = () => recentMetrics().map((m) => m.emf as Emf);
/** The documents that carry `name`, with their dimension sets. */
const withMetric = (name: string) =>
  docs().filter((d) => d._aws.CloudWatchMetrics[0].Metrics.some((m) => m.Name === name));

/** The rules of the format: every metric and dimension named has a value at the top level. */
function expectValidEmf(doc: Emf) {
  const [directive] = doc._aws.CloudWatchMetrics;
  expect(doc._aws.CloudWatchMetrics).toHaveLength(1);
  expect(Number.isInteger(doc._aws.Timestamp)).toBe(true);
  expect(directive.Namespace).toBe("Gym/test-stage");
  expect(directive.Metrics.length).toBeGreaterThan(0);
  expect(directive.Metrics.length).toBeLessThanOrEqual(100);
  for (const { Name, Unit } of directive.Metrics) {
    expect(typeof doc[Name], Name).toBe("number");
    expect(["Count", "Milliseconds", "None"]).toContain(Unit);
  }
  for (const set of directive.Dimensions) {
    expect(set.length).toBeLessThanOrEqual(30);
    for (const dimension of set) expect(typeof doc[dimension], dimension).toBe("string");
  }
}

beforeEach(() => {
  vi.stubEnv("STAGE", "test-stage");
  vi.stubEnv("APP_ENV", "test");
  clearRecentMetrics();
});
afterEach(() => vi.unstubAllEnvs());

describe("metrics", () => {
  it("are named in the stage's namespace", () => {
    expect(metricNamespace("prod")).toBe("Gym/prod");
    expect(metricNamespace()).toBe("Gym/test-stage");
  });

  it("ApiRequests and ApiLatency: by status class and over all requests, the route template as a property", () => {
    apiRequestMetric({ route: "/api/members/:id", method: "GET", status: 503, ms: 42 });
    for (const doc of docs()) expectValidEmf(doc);
    const [requests] = withMetric(metricNames.ApiRequests);
    expect(requests).toMatchObject({ ApiRequests: 1, StatusClass: "5xx", route: "/api/members/:id" });
    expect(requests._aws.CloudWatchMetrics[0].Dimensions).toEqual([["StatusClass"], []]);
    const [latency] = withMetric(metricNames.ApiLatency);
    expect(latency).toMatchObject({ ApiLatency: 42, route: "/api/members/:id", status: 503 });
    expect(latency._aws.CloudWatchMetrics[0].Metrics).toEqual([{ Name: "ApiLatency", Unit: "Milliseconds" }]);
    expect(latency._aws.CloudWatchMetrics[0].Dimensions).toEqual([[]]);
  });

  it("JobRuns, JobDuration and the summary's counts by Job; DueNotClaimed for the billing run", () => {
    jobRunMetric({
      job: "billing-run",
      ms: 1234,
      summary: { due: 10, claimed: 6, lost: 1, held: 1, cancelled: 0, skipped: 2 },
    });
    for (const doc of docs()) expectValidEmf(doc);
    const [run] = withMetric(metricNames.JobRuns);
    expect(run).toMatchObject({
      Job: "billing-run",
      JobRuns: 1,
      JobErrors: 0,
      Due: 10,
      Claimed: 6,
      Lost: 1,
      Held: 1,
      Skipped: 2,
      DueNotClaimed: 2,
    });
    expect(run._aws.CloudWatchMetrics[0].Dimensions).toEqual([["Job"]]);
    const [duration] = withMetric(metricNames.JobDuration);
    expect(duration).toMatchObject({ Job: "billing-run", JobDuration: 1234 });
    expect(withMetric(metricNames.ReconciliationMismatches)).toHaveLength(0);
  });

  it("JobErrors: a run that threw counts an error and no heartbeat", () => {
    jobRunMetric({ job: "grace-expiry", ms: 5, error: true });
    const [run] = withMetric(metricNames.JobErrors);
    expectValidEmf(run);
    expect(run).toMatchObject({ Job: "grace-expiry", JobRuns: 0, JobErrors: 1 });
  });

  it("DueNotClaimed: the due payments no outcome accounts for", () => {
    expect(dueNotClaimed({ due: 5, claimed: 3, lost: 1, held: 0, cancelled: 1, skipped: 0 })).toBe(0);
    expect(dueNotClaimed({ due: 5, claimed: 3, skipped: 2 })).toBe(2);
    expect(dueNotClaimed({})).toBe(0);
  });

  it("ReconciliationMismatches: from the reconciliation job's `mismatches`, zero included (the alarm clears on it)", () => {
    jobRunMetric({ job: "reconciliation", ms: 10, summary: { checked: 40, mismatches: 3 } });
    jobRunMetric({ job: "reconciliation", ms: 10, summary: { checked: 40, mismatches: 0 } });
    const found = withMetric(metricNames.ReconciliationMismatches);
    for (const doc of found) expectValidEmf(doc);
    expect(found.map((d) => d.ReconciliationMismatches)).toEqual([3, 0]);
    expect(found[0]._aws.CloudWatchMetrics[0].Dimensions).toEqual([[]]);
  });

  it("Settlements and Declines: by provider and outcome, declines by code", () => {
    settlementMetric({ type: "stripe_card" }, { state: "succeeded" }, "charge");
    settlementMetric(
      { type: "akahu_bank" },
      { state: "failed", code: "insufficient_funds", hard: false },
      "poll",
    );
    settlementMetric(
      { type: "stripe_card" },
      { state: "failed", code: "stolen_card", hard: true },
      "webhook",
    );
    for (const doc of docs()) expectValidEmf(doc);
    const settled = withMetric(metricNames.Settlements);
    expect(settled.map((d) => [d.Provider, d.Outcome, d.source])).toEqual([
      ["stripe", "succeeded", "charge"],
      ["akahu", "failed", "poll"],
      ["stripe", "declined", "webhook"],
    ]);
    expect(settled[0]._aws.CloudWatchMetrics[0].Dimensions).toEqual([["Provider", "Outcome"], ["Outcome"]]);
    const declines = withMetric(metricNames.Declines);
    expect(declines.map((d) => [d.Provider, d.DeclineCode])).toEqual([
      ["akahu", "insufficient_funds"],
      ["stripe", "stolen_card"],
    ]);
  });

  it("WebhookReceipts: by provider and outcome", () => {
    webhookMetric("stripe", "refused_signature");
    const [doc] = withMetric(metricNames.WebhookReceipts);
    expectValidEmf(doc);
    expect(doc).toMatchObject({ Provider: "stripe", Outcome: "refused_signature", WebhookReceipts: 1 });
    expect(doc._aws.CloudWatchMetrics[0].Dimensions).toEqual([["Provider", "Outcome"], ["Outcome"]]);
  });

  it("carry the request id and organisation of the work that emitted them", () => {
    withLogContext({ request_id: "req-1", organisation_id: "org-1" }, () =>
      webhookMetric("akahu", "accepted"),
    );
    expect(docs()[0]).toMatchObject({ request_id: "req-1", organisation_id: "org-1" });
  });

  it("in AWS are written to stdout as one JSON line each (CloudWatch Logs extracts them)", () => {
    vi.stubEnv("APP_ENV", "aws");
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      emitMetrics({ values: { JobRuns: 1 }, dimensions: { Job: "door-access" } });
    } finally {
      write.mockRestore();
    }
    const [line] = lines;
    expect(line.endsWith("\n")).toBe(true);
    const doc = JSON.parse(line) as Emf;
    expectValidEmf(doc);
    expect(doc).toMatchObject({ Job: "door-access", JobRuns: 1 });
    expect(recentMetrics()).toHaveLength(0);
  });

  it("read as one line each locally", () => {
    apiRequestMetric({ route: "/api/health", method: "GET", status: 200, ms: 3 });
    const [line] = recentMetrics().map(formatMetric);
    expect(line).toMatch(
      /^\d{4}-\d\d-\d\dT.* ApiRequests=1 \[StatusClass=2xx\] route=\/api\/health method=GET status=200$/,
    );
  });
});
