import { doorAccessReview } from "../access/sync";
import { businessNow } from "../clock";
import "../payment/charge";
import "../payment/consent";
import { billingRun, graceExpiry, type JobOptions, paymentPolling, paymentRetries } from "../payment/jobs";
import { reconcilePayments } from "../payment/reconcile";
import "../payment/webhooks";
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

/** The body of each job (payment/jobs.ts). */
const bodies: Record<JobName, JobBody> = {
  "billing-run": billingRun,
  "payment-retries": paymentRetries,
  "grace-expiry": graceExpiry,
  "payment-polling": paymentPolling,
  "door-access": doorAccessReview,
  reconciliation: reconcilePayments,
};

/**
 * Runs a job for `now` (default: the business clock, which is real time in AWS). The same code
 * runs under EventBridge, the local scheduler, `/api/dev/jobs/{job}` and `npm run job`.
 */
export async function runJob(job: JobName, now?: Date, options: JobOptions = {}): Promise<JobResult> {
  const startedAt = new Date().toISOString();
  const at = now ?? (await businessNow());
  const summary = await bodies[job](at, options);
  return { job, now: at.toISOString(), startedAt, finishedAt: new Date().toISOString(), summary };
}
