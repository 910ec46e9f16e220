import { runJob } from "@gym/core/jobs/run";
import { type JobName, jobNames, jobSchedule } from "@gym/core/jobs/schedule";

/**
 * The local stand-in for EventBridge: runs each job handler in-process on the same cadence as
 * its schedule in AWS (jobSchedule). A run never overlaps itself.
 */
export function startScheduler(options: { speedUp?: number } = {}) {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<JobName>();
  const tick = async (job: JobName) => {
    if (running.has(job)) return;
    running.add(job);
    try {
      // runJob logs the run and its failure (with the run's request id).
      await runJob(job);
    } catch {
      // Logged by runJob; the next tick runs it again.
    } finally {
      running.delete(job);
    }
  };
  for (const job of jobNames) {
    const ms = (jobSchedule[job].everyMinutes * 60_000) / (options.speedUp ?? 1);
    timers.push(setInterval(() => void tick(job), ms));
    void tick(job);
  }
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
