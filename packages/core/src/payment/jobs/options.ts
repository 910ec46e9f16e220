/**
 * What the money jobs (payment/jobs/*.ts, called by jobs/run.ts) share: their options and a
 * bounded-concurrency loop.
 */
import type { ChargeQueue } from "../queue";

export interface JobOptions {
  queue?: ChargeQueue;
  onProgress?: (done: number, label?: string) => void;
  /** Local runs wait for the in-process charges so the summary includes them. */
  wait?: boolean;
}

/** Runs `fn` over items with at most `limit` at once. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  });
  await Promise.all(workers);
}
