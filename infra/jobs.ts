import { type JobName, jobSchedule } from "@gym/core/jobs/schedule";
import { Duration } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import { EventSourceMapping, FilterCriteria, FilterRule, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { Queue as CdkQueue } from "aws-cdk-lib/aws-sqs";
import { Cron, Queue, Function as SstFunction, type StackContext, use } from "sst/constructs";
import { coreFunctionProps } from "./function";
import { Storage } from "./storage";

/** EventBridge rate expression: `rate(1 minute)`, `rate(15 minutes)`. */
export function rateExpression(everyMinutes: number): `rate(${string})` {
  if (!Number.isInteger(everyMinutes) || everyMinutes < 1) {
    throw new Error(`Job interval must be a whole number of minutes >= 1, got ${everyMinutes}`);
  }
  return `rate(${everyMinutes} ${everyMinutes === 1 ? "minute" : "minutes"})`;
}

/** `payment-polling` -> `PaymentPolling` (construct ids). */
function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

/**
 * The charge queue's limits. Consumers charge at most `maxConcurrency` batches of `batchSize` at
 * once (Stripe allows ~100 requests/s per account in live mode, Akahu far fewer: 5 Lambdas × 10
 * sequential charges of 0.3–1 s each stays well inside both). A message that fails
 * `maxReceiveCount` times goes to the dead-letter queue, which raises an alarm.
 */
export const chargeQueueSettings = {
  batchSize: 10,
  maxConcurrency: 5,
  maxReceiveCount: 5,
  /** Longer than the consumer's timeout, so a batch is never handed to two consumers at once. */
  visibilityTimeoutSeconds: 6 * 60,
  consumerTimeoutSeconds: 5 * 60,
};

/**
 * The outbox's stream consumer (docs/data-model.md "The outbox"): only new outbox items reach it
 * (the filter), a few at a time; a record whose delivery throws is retried `retryAttempts` times,
 * then left to the `outbox` job, which drains every item still in the outbox (they stay until
 * delivered), so nothing needs a dead-letter queue here.
 */
export const outboxStreamSettings = {
  batchSize: 10,
  retryAttempts: 3,
  /** ElectroDB's entity name on every item (`__edb_e__`). */
  entity: "outbox_event",
};

/** The jobs that claim payments and hand them to the charge queue. */
export const enqueuingJobs: readonly JobName[] = ["billing-run", "payment-retries", "payment-polling"];

/**
 * One EventBridge schedule per entry of core's `jobSchedule`, each invoking its own function
 * `packages/functions/src/jobs/<job>.handler`. Jobs are idempotent, so EventBridge's retries and an
 * overlapping run are harmless.
 *
 * The charge queue (SQS) separates claiming from charging: the billing run claims due payments
 * page by page and sends their ids here; the consumer Lambda charges them with bounded
 * concurrency. Only the enqueuing jobs may send to it (sqs:SendMessage on this queue alone); only
 * the consumer may receive and delete. Failed messages land in a dead-letter queue (alarmed in
 * infra/monitoring.ts).
 */
export function Jobs(ctx: StackContext) {
  const { stack } = ctx;
  const functions = {} as Record<JobName, SstFunction>;

  const deadLetters = new CdkQueue(stack, "ChargeDeadLetters", {
    retentionPeriod: Duration.days(14),
    enforceSSL: true,
  });
  const charges = new Queue(stack, "Charges", {
    consumer: {
      function: {
        description: "Charges claimed payments (Stripe off-session, Akahu) from the charge queue",
        handler: "packages/functions/src/jobs/charge-consumer.handler",
        memorySize: "512 MB",
        timeout: `${chargeQueueSettings.consumerTimeoutSeconds} seconds`,
        ...coreFunctionProps(ctx, "ChargeConsumer"),
      },
      cdk: {
        eventSource: {
          batchSize: chargeQueueSettings.batchSize,
          maxConcurrency: chargeQueueSettings.maxConcurrency,
          reportBatchItemFailures: true,
        },
      },
    },
    cdk: {
      queue: {
        visibilityTimeout: Duration.seconds(chargeQueueSettings.visibilityTimeoutSeconds),
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: chargeQueueSettings.maxReceiveCount },
      },
    },
  });

  for (const [job, { description, everyMinutes }] of Object.entries(jobSchedule) as [
    JobName,
    (typeof jobSchedule)[JobName],
  ][]) {
    const props = coreFunctionProps(ctx, pascal(job));
    const enqueues = enqueuingJobs.includes(job);
    const cron = new Cron(stack, `${pascal(job)}Schedule`, {
      schedule: rateExpression(everyMinutes),
      job: {
        function: {
          // Lambda caps descriptions at 256 characters.
          description: `${job}: ${description}`.slice(0, 256),
          handler: `packages/functions/src/jobs/${job}.handler`,
          memorySize: "512 MB",
          timeout: "5 minutes",
          ...props,
          environment: {
            ...props.environment,
            ...(enqueues ? { CHARGE_QUEUE_URL: charges.queueUrl } : {}),
          },
          permissions: [
            ...((props.permissions as PolicyStatement[]) ?? []),
            ...(enqueues
              ? [new PolicyStatement({ actions: ["sqs:SendMessage"], resources: [charges.queueArn] })]
              : []),
          ],
        },
      },
    });
    functions[job] = cron.jobFunction;
  }

  // The outbox's stream consumer. Its mapping and stream permissions are written here rather than
  // by CDK's DynamoEventSource, which grants dynamodb:ListStreams on every resource ('*').
  const { table } = use(Storage);
  const streamArn = table.cdk.table.tableStreamArn;
  if (!streamArn) throw new Error("the table has no stream (infra/storage.ts)");
  const streamProps = coreFunctionProps(ctx, "OutboxStream");
  const outboxStream = new SstFunction(stack, "OutboxStream", {
    description: "Delivers the outbox's events from the table's stream (at least once; handlers idempotent)",
    handler: "packages/functions/src/jobs/outbox-stream.handler",
    memorySize: "512 MB",
    timeout: "1 minute",
    ...streamProps,
    permissions: [
      ...((streamProps.permissions as PolicyStatement[]) ?? []),
      new PolicyStatement({
        actions: [
          "dynamodb:DescribeStream",
          "dynamodb:GetRecords",
          "dynamodb:GetShardIterator",
          "dynamodb:ListStreams",
        ],
        resources: [streamArn],
      }),
    ],
  });
  new EventSourceMapping(stack, "OutboxStreamMapping", {
    target: outboxStream,
    eventSourceArn: streamArn,
    startingPosition: StartingPosition.LATEST,
    batchSize: outboxStreamSettings.batchSize,
    retryAttempts: outboxStreamSettings.retryAttempts,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    filters: [
      FilterCriteria.filter({
        eventName: FilterRule.isEqual("INSERT"),
        dynamodb: { NewImage: { __edb_e__: { S: FilterRule.isEqual(outboxStreamSettings.entity) } } },
      }),
    ],
  });

  // The dead-letter queue's alarm, and every other, is in infra/monitoring.ts (one topic per stage).
  return { functions, charges, deadLetters, outboxStream };
}
