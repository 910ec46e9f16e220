import { runJob } from "@gym/core/jobs/run";
import { type JobName, jobNames, jobSchedule } from "@gym/core/jobs/schedule";
import { log } from "@gym/core/log";

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
      const result = await runJob(job);
      log.debug("job finished", { ...result });
    } catch (err) {
      log.error("job failed", { job, error: (err as Error).message });
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
