import { type JobName, jobSchedule } from "@gym/core/jobs/schedule";
import { Cron, type Function as SstFunction, type StackContext } from "sst/constructs";
import { coreFunctionProps } from "./function";

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
 * One EventBridge schedule per entry of core's `jobSchedule`, each invoking its own function
 * `packages/functions/src/jobs/<job>.handler`. Jobs are idempotent, so EventBridge's retries and an
 * overlapping run are harmless.
 */
export function Jobs(ctx: StackContext) {
  const { stack } = ctx;
  const functions = {} as Record<JobName, SstFunction>;

  for (const [job, { description, everyMinutes }] of Object.entries(jobSchedule) as [
    JobName,
    (typeof jobSchedule)[JobName],
  ][]) {
    const cron = new Cron(stack, `${pascal(job)}Schedule`, {
      schedule: rateExpression(everyMinutes),
      job: {
        function: {
          // Lambda caps descriptions at 256 characters.
          description: `${job}: ${description}`.slice(0, 256),
          handler: `packages/functions/src/jobs/${job}.handler`,
          memorySize: "512 MB",
          timeout: "5 minutes",
          ...coreFunctionProps(ctx, pascal(job)),
        },
      },
    });
    functions[job] = cron.jobFunction;
  }

  return { functions };
}
