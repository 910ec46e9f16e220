/**
 * Metrics from the code, in CloudWatch's embedded metric format (EMF): a metric is one JSON log
 * line with an `_aws` block naming the namespace, dimensions and metric names; CloudWatch Logs
 * turns it into metric data points, and the same line stays queryable in Logs Insights with its
 * properties (the route, the organisation, the request id). No API call, no agent, no SDK.
 *
 * Why a small serialiser here rather than `aws-embedded-metrics` or Powertools Metrics: the
 * format is a documented JSON shape that takes ~60 lines to write; the libraries add their own
 * environment detection, sinks and (Powertools) a shared commons package to a Lambda bundle
 * that is already at its size budget (`npm run bench`), for nothing this code uses.
 *
 * Every metric the code emits is named in `metricNames` below; infra/monitoring.ts builds its
 * alarms and dashboard from the same names (docs/operations.md lists each).
 *
 * Locally (APP_ENV local/test) nothing is written to stdout: the lines are kept in memory (the
 * last 500) and shown at `/api/dev/metrics` in a readable form.
 */
import { logContext } from "./log";

/** The catalogue: each metric, the dimension sets it is emitted with, and what it counts. */
export const metricNames = {
  /** API: every request (dimension sets: StatusClass, and none = all requests). */
  ApiRequests: "ApiRequests",
  /** API: milliseconds from the first middleware to the answer (no dimension; route as a property). */
  ApiLatency: "ApiLatency",
  /** Jobs: a run that finished (dimension Job). The heartbeat alarms watch it. */
  JobRuns: "JobRuns",
  /** Jobs: a run that threw (dimension Job). */
  JobErrors: "JobErrors",
  /** Jobs: the run's duration in milliseconds (dimension Job). */
  JobDuration: "JobDuration",
  /** Billing run: due payments it neither claimed nor accounted for (a claim that threw). */
  DueNotClaimed: "DueNotClaimed",
  /** Reconciliation: the job summary's `mismatches` (no dimension). */
  ReconciliationMismatches: "ReconciliationMismatches",
  /**
   * Reconciliation: the job summary's `ledger_breaks` (dimension Job), the subscriptions whose ledger
   * breaks an invariant (payment/ledger-check.ts). Emitted as a summary count, named here for its alarm.
   */
  LedgerBreaks: "LedgerBreaks",
  /** Settlement: a payment reached a final state (dimension sets: Provider+Outcome, Outcome). */
  Settlements: "Settlements",
  /** Settlement: a provider's final answer not applied after every try (conflicts); the payment stays in flight. */
  SettlementsDeferred: "SettlementsDeferred",
  /** Reconciliation: live subscriptions of the payments checked with no upcoming payment (their billing stopped). */
  SubscriptionsUnscheduled: "SubscriptionsUnscheduled",
  /**
   * Outbox: an event not delivered (dimension none; `type` and `reason` as properties): its type has
   * no subscriber (`no_subscriber`: fails closed) or its handler threw (`handler_failed`). The event
   * stays in the outbox and is tried again (outbox/outbox.ts).
   */
  OutboxUndelivered: "OutboxUndelivered",
  /** Settlement: a failed or declined payment by decline code (dimension set Provider+DeclineCode). */
  Declines: "Declines",
  /** Webhooks: every call received, rate-limited ones too (dimension sets: Provider+Outcome, Outcome). */
  WebhookReceipts: "WebhookReceipts",
} as const;

/**
 * A job's summary counts become metrics under their own names in PascalCase (`due` → `Due`,
 * `claimed` → `Claimed`), dimension Job: whatever a job reports is charted without a change here.
 */
export const summaryMetricName = (key: string) =>
  key.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

type Unit = "Count" | "Milliseconds" | "None";

export interface MetricEntry {
  /** The EMF document, as written to the log. */
  emf: Record<string, unknown>;
}

const RECENT = 500;
const recent: MetricEntry[] = [];

/** The namespace of a stage's metrics: `Gym/<stage>` (`Gym/local` locally). */
export function metricNamespace(stage = process.env.STAGE || "local"): string {
  return `Gym/${stage}`;
}

/**
 * Writes one EMF document: `values` (metric name → number, all with `unit`), `dimensions`
 * (name → value, all on the line) emitted under each of `dimensionSets` (each a list of dimension
 * names; `[]` = the metric without dimensions), and `properties` (queryable, not dimensions).
 * The current log context (request id, organisation) is added as properties.
 */
export function emitMetrics(input: {
  values: Record<string, number>;
  unit?: Unit;
  dimensions?: Record<string, string>;
  dimensionSets?: string[][];
  properties?: Record<string, unknown>;
}) {
  const dimensions = input.dimensions ?? {};
  const dimensionSets = input.dimensionSets ?? [Object.keys(dimensions)];
  const unit = input.unit ?? "Count";
  const emf: Record<string, unknown> = {
    ...logContext(),
    ...input.properties,
    ...dimensions,
    ...input.values,
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: metricNamespace(),
          Dimensions: dimensionSets,
          Metrics: Object.keys(input.values).map((Name) => ({ Name, Unit: unit })),
        },
      ],
    },
  };
  if (process.env.APP_ENV === "aws") {
    process.stdout.write(`${JSON.stringify(emf)}\n`);
    return;
  }
  recent.push({ emf });
  if (recent.length > RECENT) recent.splice(0, recent.length - RECENT);
}

/** The metric lines emitted in this process, oldest first (local and tests only). */
export function recentMetrics(): readonly MetricEntry[] {
  return recent;
}

export function clearRecentMetrics() {
  recent.length = 0;
}

/** One readable line per metric document: `ApiRequests=1 [StatusClass=2xx] route=/api/health`. */
export function formatMetric({ emf }: MetricEntry): string {
  const { _aws, ...fields } = emf as { _aws: { Timestamp: number; CloudWatchMetrics: Directive[] } };
  const values = fields as Record<string, unknown>;
  const [directive] = _aws.CloudWatchMetrics;
  const names = new Set(directive.Metrics.map((m) => m.Name));
  const dims = new Set(directive.Dimensions.flat());
  const show = (keys: Iterable<string>) => [...keys].map((k) => `${k}=${values[k]}`).join(" ");
  const rest = show(Object.keys(values).filter((k) => !names.has(k) && !dims.has(k)));
  return [new Date(_aws.Timestamp).toISOString(), show(names), dims.size ? `[${show(dims)}]` : "", rest]
    .filter(Boolean)
    .join(" ");
}

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}

// ---- the metrics each part of the code emits (one function per source) ----

/** The outbox: an event a delivery could not deliver (outbox/outbox.ts). */
export function outboxUndeliveredMetric(input: { type: string; reason: "no_subscriber" | "handler_failed" }) {
  emitMetrics({
    values: { [metricNames.OutboxUndelivered]: 1 },
    dimensionSets: [[]],
    properties: { type: input.type, reason: input.reason },
  });
}

/** The API's request middleware: one request, by status class, with its latency. */
export function apiRequestMetric(input: { route: string; method: string; status: number; ms: number }) {
  emitMetrics({
    values: { [metricNames.ApiRequests]: 1 },
    dimensions: { StatusClass: `${Math.floor(input.status / 100)}xx` },
    dimensionSets: [["StatusClass"], []],
    properties: { route: input.route, method: input.method, status: input.status },
  });
  emitMetrics({
    values: { [metricNames.ApiLatency]: input.ms },
    unit: "Milliseconds",
    dimensionSets: [[]],
    properties: { route: input.route, method: input.method, status: input.status },
  });
}

/**
 * The job runner (jobs/run.ts): a finished run with its summary counts and duration, or a run
 * that threw. The billing run's due payments it did not account for, and reconciliation's
 * mismatches, get their own metrics (alarmed).
 */
export function jobRunMetric(input: {
  job: string;
  ms: number;
  summary?: Record<string, number>;
  error?: boolean;
}) {
  const summary = input.summary ?? {};
  const values: Record<string, number> = {
    [metricNames.JobRuns]: input.error ? 0 : 1,
    [metricNames.JobErrors]: input.error ? 1 : 0,
  };
  for (const [key, value] of Object.entries(summary)) {
    if (typeof value === "number" && Number.isFinite(value)) values[summaryMetricName(key)] = value;
  }
  if (input.job === "billing-run" && !input.error) {
    values[metricNames.DueNotClaimed] = dueNotClaimed(summary);
  }
  emitMetrics({ values, dimensions: { Job: input.job } });
  emitMetrics({
    values: { [metricNames.JobDuration]: input.ms },
    unit: "Milliseconds",
    dimensions: { Job: input.job },
  });
  if (typeof summary.unscheduled === "number") {
    emitMetrics({
      values: { [metricNames.SubscriptionsUnscheduled]: summary.unscheduled },
      dimensionSets: [[]],
      properties: { job: input.job },
    });
  }
  if (typeof summary.mismatches === "number") {
    emitMetrics({
      values: { [metricNames.ReconciliationMismatches]: summary.mismatches },
      dimensionSets: [[]],
      properties: { job: input.job },
    });
  }
}

/**
 * The billing run's outcomes for a due payment (payment/jobs/billing-run.ts `claimOne`): each due payment
 * ends claimed, lost (another run claimed it), held or cancelled; what is left was not claimed
 * (its claim threw: `skipped`). A new outcome of the billing run belongs in this list.
 */
export const billingRunOutcomes = ["claimed", "lost", "held", "cancelled"] as const;

export function dueNotClaimed(summary: Record<string, number>): number {
  const accounted = billingRunOutcomes.reduce((sum, key) => sum + (summary[key] ?? 0), 0);
  return Math.max(0, (summary.due ?? 0) - accounted);
}

/** Settlement (payment/settle.ts): a payment reached a final state. */
export function settlementMetric(
  payment: { type: string },
  outcome: { state: string; code?: string; hard?: boolean },
  source?: string,
) {
  const provider = payment.type === "stripe_card" ? "stripe" : "akahu";
  const result = outcome.state === "succeeded" ? "succeeded" : outcome.hard ? "declined" : "failed";
  emitMetrics({
    values: { [metricNames.Settlements]: 1 },
    dimensions: { Provider: provider, Outcome: result },
    dimensionSets: [["Provider", "Outcome"], ["Outcome"]],
    properties: { source },
  });
  if (result !== "succeeded") {
    emitMetrics({
      values: { [metricNames.Declines]: 1 },
      dimensions: { Provider: provider, DeclineCode: (outcome.code || "unknown").slice(0, 64) },
      properties: { source, outcome: result },
    });
  }
}

/** Settlement (payment/settle.ts): an answer left unapplied after every try (alarmed). */
export function settlementDeferredMetric(source?: string) {
  emitMetrics({
    values: { [metricNames.SettlementsDeferred]: 1 },
    dimensionSets: [[]],
    properties: { source },
  });
}

export type WebhookReceipt =
  | "accepted"
  | "duplicate"
  | "error"
  | "refused_signature"
  | "refused_mismatch"
  | "rate_limited";

/**
 * Webhook receipts (webhook-log/receive.ts): every call, by provider and outcome; a call refused by
 * the per-source limit before it is read (`rate_limited`, api/middleware/webhook-limit.ts) too.
 */
export function webhookMetric(provider: string, outcome: WebhookReceipt) {
  emitMetrics({
    values: { [metricNames.WebhookReceipts]: 1 },
    dimensions: { Provider: provider, Outcome: outcome },
    dimensionSets: [["Provider", "Outcome"], ["Outcome"]],
  });
}
