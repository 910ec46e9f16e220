import { doorAccessReview } from "../access/door-access";
import { payoutCatchUp } from "../accounting/payout-catch-up";
import { businessNow } from "../clock";
import { config } from "../config";
import { newId } from "../ids";
import { log, logContext, withLogContext } from "../log";
import { jobRunMetric } from "../metrics";
import { memberNotices } from "../notice/jobs";
import { drainOutbox } from "../outbox/outbox";
import { graceExpiry } from "../payment/dunning/grace-expiry";
import { paymentRetries } from "../payment/dunning/payment-retries";
import { billingRun } from "../payment/jobs/billing-run";
import type { JobOptions } from "../payment/jobs/options";
import { paymentPolling } from "../payment/jobs/payment-polling";
import { reconcilePayments } from "../payment/reconcile";
import type { JobName } from "./schedule";

export interface JobResult {
  job: JobName;
  /** The business clock's time the job ran for. */
  now: string;
  startedAt: string;
  finishedAt: string;
  /** What the run did, for the log line (counts of items examined and changed). */
  summary: Record<string, number>;
}

type JobBody = (now: Date, options: JobOptions) => Promise<Record<string, number>>;

/** The body of each job (payment/jobs/<job>.ts for the money jobs). */
const bodies: Record<JobName, JobBody> = {
  "billing-run": billingRun,
  "payment-retries": paymentRetries,
  "grace-expiry": graceExpiry,
  "payment-polling": paymentPolling,
  "door-access": doorAccessReview,
  reconciliation: reconcilePayments,
  "payout-catch-up": payoutCatchUp,
  "member-notices": memberNotices,
  outbox: () => drainOutbox(),
};

/**
 * Runs a job for `now` (default: the business clock, which is real time in AWS). The same code
 * runs under EventBridge, the local scheduler, `/api/dev/jobs/{job}` and `npm run job`.
 *
 * Every run gets its own request id on every log line (and on the charge messages it sends), and
 * emits its metrics here, in one place: the summary's counts, its duration, a heartbeat
 * (`JobRuns`) when it finishes and `JobErrors` when it throws (core/metrics.ts).
 */
export async function runJob(job: JobName, now?: Date, options: JobOptions = {}): Promise<JobResult> {
  // Its own request id, unless run by a request (`/api/dev/jobs/{job}`), whose id it keeps.
  return withLogContext({ request_id: logContext().request_id ?? newId(), job }, async () => {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    try {
      const at = now ?? (await businessNow());
      const summary = await bodies[job](at, options);
      const ms = Math.round(performance.now() - started);
      jobRunMetric({ job, ms, summary });
      // Quiet locally (the scheduler runs every few minutes); one line per run in AWS.
      (config.isLocal ? log.debug : log.info)("job finished", { now: at.toISOString(), ms, summary });
      return { job, now: at.toISOString(), startedAt, finishedAt: new Date().toISOString(), summary };
    } catch (error) {
      jobRunMetric({ job, ms: Math.round(performance.now() - started), error: true });
      log.error("job failed", { error: (error as Error).message, stack: (error as Error).stack });
      throw error;
    }
  });
}
