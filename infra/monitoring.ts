import { type JobName, jobSchedule } from "@gym/core/jobs/schedule";
import { metricNames, metricNamespace } from "@gym/core/metrics";
import { Duration } from "aws-cdk-lib";
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  Stats,
  TextWidget,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { Operation } from "aws-cdk-lib/aws-dynamodb";
import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { type Function as SstFunction, type StackContext, use } from "sst/constructs";
import { API } from "./api";
import { Jobs } from "./jobs";
import { deploySettings, isProtectedStage } from "./settings";
import { Storage } from "./storage";

/**
 * The thresholds of the stage's alarms, one place (docs/operations.md has a runbook section per
 * alarm, named by the alarm's id). Every stage gets the same alarms and thresholds, so a preview
 * stage proves them before production; only the stage's `ALARM_EMAIL` decides who is told.
 */
export const alarmThresholds = {
  /** API: 5xx answers as a share of all requests, over 2 consecutive 5-minute periods… */
  apiServerErrorPercent: 5,
  /** …counted only when the period had at least this many requests. */
  apiMinRequests: 10,
  /** API: p95 latency (API Gateway's, cold starts included) over 3 consecutive 5-minute periods. */
  apiP95LatencyMs: 3000,
  /** Settlements that failed or were declined, as a share of all settled in an hour… */
  failedPaymentPercent: 25,
  /** …counted only when at least this many payments settled in that hour. */
  failedPaymentMinSettled: 10,
  /** Charge messages in the dead-letter queue. */
  deadLetters: 1,
  /** Billing run: due payments not claimed in one run (a claim that threw). */
  dueNotClaimed: 1,
  /** Reconciliation: mismatches in its latest run. */
  reconciliationMismatches: 1,
  /** Reconciliation: subscriptions whose ledger breaks an invariant in its latest run. */
  ledgerBreaks: 1,
  /** Reconciliation: live subscriptions with no upcoming payment in its latest run (billing stopped). */
  subscriptionsUnscheduled: 1,
  /** Settlement: answers left unapplied after every try in an hour. */
  settlementsDeferred: 1,
  /** Outbox events not delivered in 15 minutes (no subscriber, or a handler that threw). */
  outboxUndelivered: 1,
  /** DynamoDB throttled requests in 5 minutes (on-demand: should be none). */
  dynamoThrottles: 10,
  /** DynamoDB system errors (its own 500s) in 5 minutes. */
  dynamoSystemErrors: 5,
  /** Webhook calls refused for their signature or secret in 15 minutes (a rotated secret). */
  webhookRefusals: 5,
  /** Webhook calls refused by the per-source limit (600 a minute) in 15 minutes: any at all. */
  webhookRateLimited: 1,
  /** SES account bounce rate (AWS reviews an account at 5%, may pause sending at 10%). */
  sesBounceRate: 0.05,
  /** SES account complaint rate (AWS reviews at 0.1%, may pause at 0.5%). */
  sesComplaintRate: 0.001,
} as const;

/** The operations used on the table (infra/function.ts grants them), for DynamoDB's per-operation metrics. */
const tableOperations = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

/** `payment-polling` -> `PaymentPolling` (construct ids). */
const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/**
 * A job's heartbeat window: twice its cadence, at most a day (CloudWatch evaluates an alarm over at
 * most 24 hours). A daily job is therefore watched for "no run in the last 24 hours": give a daily
 * job a cadence of 12 hours or less (doing the day's work once) to have a real 2 × margin.
 */
export function heartbeatMinutes(everyMinutes: number): number {
  return Math.min(2 * everyMinutes, 24 * 60);
}

/** The runbook section of an alarm (docs/operations.md), named in its description. */
export const runbook = (id: string) => `Runbook: docs/operations.md#${id.toLowerCase()}`;

/**
 * Operations: one SNS topic per stage that every alarm (and its return to OK) goes to, subscribed
 * by the stage's `ALARM_EMAIL`; the alarms; and one CloudWatch dashboard with the money and member
 * figures next to the technical ones. The application's own metrics come from its log lines in
 * CloudWatch's embedded metric format, namespace `Gym/<stage>` (packages/core/src/metrics.ts).
 */
export function Monitoring({ stack, app }: StackContext) {
  const { api, handler } = use(API);
  const { functions, deadLetters, charges } = use(Jobs);
  const { table } = use(Storage);
  const settings = deploySettings();
  const namespace = metricNamespace(app.stage);

  const topic = new Topic(stack, "Alarms", { displayName: `Gym platform ${app.stage} alarms` });
  for (const email of settings.alarmEmails) topic.addSubscription(new EmailSubscription(email));
  const action = new SnsAction(topic);

  const gym = (
    metricName: string,
    dimensionsMap: Record<string, string> = {},
    props: { statistic?: string; period?: Duration } = {},
  ) =>
    new Metric({
      namespace,
      metricName,
      dimensionsMap,
      statistic: props.statistic ?? Stats.SUM,
      period: props.period ?? Duration.minutes(5),
    });

  const alarms: Alarm[] = [];
  const alarm = (
    id: string,
    props: {
      what: string;
      metric: IMetric;
      threshold: number;
      comparison?: ComparisonOperator;
      evaluationPeriods?: number;
      missing?: TreatMissingData;
    },
  ) => {
    const created = new Alarm(stack, id, {
      alarmName: `${app.stage}-gym-${id}`,
      alarmDescription: `${props.what} ${runbook(id)}`,
      metric: props.metric,
      threshold: props.threshold,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      datapointsToAlarm: props.evaluationPeriods ?? 1,
      comparisonOperator: props.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: props.missing ?? TreatMissingData.NOT_BREACHING,
    });
    created.addAlarmAction(action);
    created.addOkAction(action);
    alarms.push(created);
    return created;
  };

  // ---- API (API Gateway's own figures: they include what the app never saw, e.g. a timeout) ----
  const httpApi = api.cdk.httpApi;
  const fiveMinutes = { period: Duration.minutes(5) };
  const apiRequests = httpApi.metricCount({ ...fiveMinutes, statistic: Stats.SUM });
  const api5xx = httpApi.metricServerError({ ...fiveMinutes, statistic: Stats.SUM });
  const api5xxRate = new MathExpression({
    label: "5xx %",
    expression: `IF(FILL(requests, 0) >= ${alarmThresholds.apiMinRequests}, 100 * FILL(errors, 0) / requests, 0)`,
    usingMetrics: { requests: apiRequests, errors: api5xx },
    period: Duration.minutes(5),
  });
  alarm("ApiServerErrors", {
    what: `More than ${alarmThresholds.apiServerErrorPercent}% of API requests answered 5xx for 10 minutes.`,
    metric: api5xxRate,
    threshold: alarmThresholds.apiServerErrorPercent,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
  });
  const apiP95 = httpApi.metricLatency({ ...fiveMinutes, statistic: Stats.percentile(95) });
  alarm("ApiLatency", {
    what: `API p95 latency above ${alarmThresholds.apiP95LatencyMs} ms for 15 minutes.`,
    metric: apiP95,
    threshold: alarmThresholds.apiP95LatencyMs,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
  });

  // ---- jobs: a heartbeat (a finished run within twice the cadence) and errors, per job ----
  for (const [job, { everyMinutes }] of Object.entries(jobSchedule) as [
    JobName,
    (typeof jobSchedule)[JobName],
  ][]) {
    const window = heartbeatMinutes(everyMinutes);
    alarm(`${pascal(job)}Heartbeat`, {
      what: `${job} has not finished a run in ${window} minutes (it runs every ${everyMinutes}).`,
      metric: gym(metricNames.JobRuns, { Job: job }, { period: Duration.minutes(window) }),
      threshold: 1,
      comparison: ComparisonOperator.LESS_THAN_THRESHOLD,
      missing: TreatMissingData.BREACHING,
    });
    alarm(`${pascal(job)}Errors`, {
      what: `${job} failed (threw, timed out or could not start).`,
      metric: functions[job].metricErrors({
        period: Duration.minutes(Math.min(everyMinutes, 24 * 60)),
        statistic: Stats.SUM,
      }),
      threshold: 1,
    });
  }

  // ---- money ----
  alarm("BillingDueNotClaimed", {
    what: "The billing run found due payments it did not claim (their claim failed).",
    metric: gym(metricNames.DueNotClaimed, { Job: "billing-run" }, { period: Duration.hours(1) }),
    threshold: alarmThresholds.dueNotClaimed,
  });
  const settled = (outcome: string) =>
    gym(metricNames.Settlements, { Outcome: outcome }, { period: Duration.hours(1) });
  const failedRate = new MathExpression({
    label: "failed + declined %",
    expression: `IF(FILL(ok, 0) + FILL(failed, 0) + FILL(declined, 0) >= ${alarmThresholds.failedPaymentMinSettled}, 100 * (FILL(failed, 0) + FILL(declined, 0)) / (FILL(ok, 0) + FILL(failed, 0) + FILL(declined, 0)), 0)`,
    usingMetrics: { ok: settled("succeeded"), failed: settled("failed"), declined: settled("declined") },
    period: Duration.hours(1),
  });
  alarm("FailedPaymentRate", {
    what: `More than ${alarmThresholds.failedPaymentPercent}% of the payments settled in an hour failed or were declined.`,
    metric: failedRate,
    threshold: alarmThresholds.failedPaymentPercent,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
  });
  alarm("ChargeDeadLetters", {
    what: "Charges failed repeatedly and are in the dead-letter queue: check them and the payments they name.",
    metric: deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
    threshold: alarmThresholds.deadLetters,
  });
  alarm("ReconciliationMismatches", {
    what: "The reconciliation job found money records that do not agree.",
    metric: gym(
      metricNames.ReconciliationMismatches,
      {},
      { statistic: Stats.MAXIMUM, period: Duration.hours(1) },
    ),
    threshold: alarmThresholds.reconciliationMismatches,
    // Daily: between runs there is no data, and the alarm keeps its state until a run reports 0.
    missing: TreatMissingData.IGNORE,
  });

  alarm("LedgerBreaks", {
    what: "The reconciliation job found a subscription whose ledger breaks an invariant (paid = charged - owing + credit, each payment counted once).",
    metric: gym(
      metricNames.LedgerBreaks,
      { Job: "reconciliation" },
      { statistic: Stats.MAXIMUM, period: Duration.hours(1) },
    ),
    threshold: alarmThresholds.ledgerBreaks,
    // As the mismatches: no data between runs; the alarm clears when a run reports 0.
    missing: TreatMissingData.IGNORE,
  });
  alarm("SubscriptionsUnscheduled", {
    what: "The reconciliation job found live memberships with no upcoming payment: their billing has stopped.",
    metric: gym(
      metricNames.SubscriptionsUnscheduled,
      {},
      { statistic: Stats.MAXIMUM, period: Duration.hours(1) },
    ),
    threshold: alarmThresholds.subscriptionsUnscheduled,
    // Daily, as the reconciliation: the alarm keeps its state until a run reports 0.
    missing: TreatMissingData.IGNORE,
  });
  alarm("SettlementsDeferred", {
    what: "A provider's final answer could not be applied after every try (transaction conflicts); polling asks again.",
    metric: gym(metricNames.SettlementsDeferred, {}, { statistic: Stats.SUM, period: Duration.hours(1) }),
    threshold: alarmThresholds.settlementsDeferred,
  });

  alarm("OutboxUndelivered", {
    what: "An outbox event could not be delivered (its type has no subscriber, or its handler threw): a reaction (door access, a receipt) is waiting.",
    metric: gym(metricNames.OutboxUndelivered, {}, { statistic: Stats.SUM, period: Duration.minutes(15) }),
    threshold: alarmThresholds.outboxUndelivered,
  });

  // ---- DynamoDB ----
  alarm("DynamoThrottles", {
    what: "DynamoDB throttled requests to the table.",
    metric: table.cdk.table.metricThrottledRequestsForOperations({
      operations: tableOperations,
      period: Duration.minutes(5),
    }),
    threshold: alarmThresholds.dynamoThrottles,
  });
  alarm("DynamoSystemErrors", {
    what: "DynamoDB answered requests to the table with its own errors (500s).",
    metric: table.cdk.table.metricSystemErrorsForOperations({
      operations: tableOperations,
      period: Duration.minutes(5),
    }),
    threshold: alarmThresholds.dynamoSystemErrors,
  });

  // ---- webhooks and email ----
  alarm("WebhookRefusals", {
    what: "Provider webhooks are being refused for their signature or secret (a rotated secret?).",
    metric: gym(
      metricNames.WebhookReceipts,
      { Outcome: "refused_signature" },
      { period: Duration.minutes(15) },
    ),
    threshold: alarmThresholds.webhookRefusals,
  });
  alarm("WebhookRateLimited", {
    what: "Webhook calls are being refused by the per-source limit (a provider's burst, or a flood).",
    metric: gym(metricNames.WebhookReceipts, { Outcome: "rate_limited" }, { period: Duration.minutes(15) }),
    threshold: alarmThresholds.webhookRateLimited,
  });
  // SES reputation is the account's, not the stage's: alarmed once, by the protected stages.
  if (isProtectedStage(app.stage)) {
    const ses = (metricName: string) =>
      new Metric({ namespace: "AWS/SES", metricName, statistic: Stats.MAXIMUM, period: Duration.hours(1) });
    alarm("SesBounceRate", {
      what: `The account's SES bounce rate is above ${alarmThresholds.sesBounceRate * 100}%.`,
      metric: ses("Reputation.BounceRate"),
      threshold: alarmThresholds.sesBounceRate,
    });
    alarm("SesComplaintRate", {
      what: `The account's SES complaint rate is above ${alarmThresholds.sesComplaintRate * 100}%.`,
      metric: ses("Reputation.ComplaintRate"),
      threshold: alarmThresholds.sesComplaintRate,
    });
  }

  // ---- the dashboard: what an operator checks each morning, money first ----
  const day = Duration.days(1);
  const hour = Duration.hours(1);
  const consumer = charges.consumerFunction as SstFunction | undefined;
  const logGroups = [handler, ...Object.values(functions), ...(consumer ? [consumer] : [])].map(
    (fn) => fn.logGroup.logGroupName,
  );
  const jobFigure = (job: JobName, names: string[]) =>
    names.map((n) => gym(n, { Job: job }, { period: day, statistic: Stats.SUM }));
  const dashboard = new Dashboard(stack, "Dashboard", {
    dashboardName: `${app.stage}-gym-platform`,
    defaultInterval: Duration.days(7),
  });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `# Gym platform: ${app.stage}\nMoney and members first, then the machinery. Every alarm has a runbook section in docs/operations.md.`,
      width: 24,
      height: 2,
    }),
  );
  dashboard.addWidgets(new AlarmStatusWidget({ title: "Alarms", alarms, width: 24, height: 4 }));
  dashboard.addWidgets(
    new SingleValueWidget({
      title: "Settled in the last day",
      metrics: ["succeeded", "failed", "declined"].map((o) =>
        gym(metricNames.Settlements, { Outcome: o }, { period: day }).with({ label: o }),
      ),
      setPeriodToTimeRange: true,
      width: 8,
    }),
    new SingleValueWidget({
      title: "Billing run: due, claimed, not claimed (last day)",
      metrics: jobFigure("billing-run", ["Due", "Claimed", metricNames.DueNotClaimed]),
      setPeriodToTimeRange: true,
      width: 8,
    }),
    new SingleValueWidget({
      title: "Members: final notices, cancelled for non-payment (last day)",
      metrics: jobFigure("grace-expiry", ["Notices", "Cancelled"]),
      setPeriodToTimeRange: true,
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: "Settlements by outcome (hourly)",
      left: ["succeeded", "failed", "declined"].map((o) => settled(o).with({ label: o })),
      width: 8,
    }),
    new GraphWidget({
      title: "Failed-payment rate %",
      left: [failedRate],
      leftAnnotations: [{ value: alarmThresholds.failedPaymentPercent, label: "alarm" }],
      width: 8,
    }),
    new GraphWidget({
      title: "Reconciliation mismatches, ledger breaks, dead letters",
      left: [
        gym(metricNames.ReconciliationMismatches, {}, { statistic: Stats.MAXIMUM, period: hour }),
        gym(metricNames.LedgerBreaks, { Job: "reconciliation" }, { statistic: Stats.MAXIMUM, period: hour }),
        deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      ],
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new LogQueryWidget({
      title: "Declines by provider and code (last day)",
      logGroupNames: logGroups,
      queryLines: [
        "filter ispresent(Declines)",
        "stats sum(Declines) as declines by Provider, DeclineCode",
        "sort declines desc",
      ],
      width: 12,
    }),
    new GraphWidget({
      title: "Webhook receipts by outcome",
      left: ["accepted", "duplicate", "error", "refused_signature", "refused_mismatch", "rate_limited"].map(
        (o) => gym(metricNames.WebhookReceipts, { Outcome: o }, { period: hour }).with({ label: o }),
      ),
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: "Job heartbeats (finished runs per hour)",
      left: Object.keys(jobSchedule).map((job) =>
        gym(metricNames.JobRuns, { Job: job }, { period: hour }).with({ label: job }),
      ),
      width: 12,
    }),
    new GraphWidget({
      title: "Job duration (max ms)",
      left: Object.keys(jobSchedule).map((job) =>
        gym(metricNames.JobDuration, { Job: job }, { statistic: Stats.MAXIMUM, period: hour }).with({
          label: job,
        }),
      ),
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: "API requests and 5xx",
      left: [apiRequests, api5xx],
      right: [api5xxRate],
      width: 8,
    }),
    new GraphWidget({
      title: "API latency p50 / p95 (ms)",
      left: [httpApi.metricLatency({ ...fiveMinutes, statistic: Stats.percentile(50) }), apiP95],
      leftAnnotations: [{ value: alarmThresholds.apiP95LatencyMs, label: "alarm" }],
      width: 8,
    }),
    new LogQueryWidget({
      title: "Slowest routes (p95 ms)",
      logGroupNames: [handler.logGroup.logGroupName],
      queryLines: [
        "filter ispresent(ApiLatency)",
        "stats count(*) as requests, pct(ApiLatency, 95) as p95 by route",
        "sort p95 desc",
        "limit 20",
      ],
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: "DynamoDB throttled requests",
      left: [
        table.cdk.table.metricThrottledRequestsForOperations({
          operations: tableOperations,
          period: Duration.minutes(5),
        }),
      ],
      width: 8,
    }),
    new GraphWidget({
      title: "DynamoDB system errors",
      left: [
        table.cdk.table.metricSystemErrorsForOperations({
          operations: tableOperations,
          period: Duration.minutes(5),
        }),
      ],
      width: 8,
    }),
    new GraphWidget({
      title: "DynamoDB consumed capacity",
      left: [
        table.cdk.table.metricConsumedReadCapacityUnits({ period: Duration.minutes(5) }),
        table.cdk.table.metricConsumedWriteCapacityUnits({ period: Duration.minutes(5) }),
      ],
      width: 8,
    }),
  );

  stack.addOutputs({
    AlarmTopic: topic.topicArn,
    Dashboard: `https://${stack.region}.console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${app.stage}-gym-platform`,
  });
  return { topic, alarms, dashboard };
}
