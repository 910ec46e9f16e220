import type { JobName } from "./schedule";

export interface JobResult {
  job: JobName;
  startedAt: string;
  finishedAt: string;
  /** What the run did, for the log line (counts of items examined and changed). */
  summary: Record<string, number>;
}

type JobBody = (now: Date) => Promise<Record<string, number>>;

/**
 * The body of each job. Billing, retries, grace expiry and polling arrive with the
 * subscriptions and payments work; until then each run examines nothing and says so.
 */
const bodies: Record<JobName, JobBody> = {
  "billing-run": async () => ({ examined: 0 }),
  "payment-retries": async () => ({ examined: 0 }),
  "grace-expiry": async () => ({ examined: 0 }),
  "payment-polling": async () => ({ examined: 0 }),
};

export async function runJob(job: JobName, now = new Date()): Promise<JobResult> {
  const startedAt = new Date().toISOString();
  const summary = await bodies[job](now);
  return { job, startedAt, finishedAt: new Date().toISOString(), summary };
}
