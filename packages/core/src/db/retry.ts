/**
 * Retrying a cancelled transaction (issue 39). DynamoDB cancels, and does not queue, a
 * transaction that meets another on one item (`TransactionConflict`), so a money transaction that
 * was cancelled for a reason other than its own conditions is tried again whole, after a jittered
 * exponential wait: two writers that collided do not collide again in step.
 */

/** The first retry waits 25–50 ms; each further one twice as long. */
export const RETRY_BASE_MS = 25;

/** Milliseconds to wait before retry number `attempt` (0 = the first): half fixed, half random. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = RETRY_BASE_MS * 2 ** (attempt + 1);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function retryWait(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
}

/** A cancellation reason as ElectroDB answers it for a cancelled transaction. */
export type CancellationReason = { rejected?: boolean; code?: string };

/** Cancellation codes that say nothing about the data: the same transaction may succeed later. */
const TRANSIENT = new Set(["TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"]);

/** Was the transaction cancelled by a collision or throttling rather than by a condition? */
export function cancelledTransiently(reasons: readonly CancellationReason[]): boolean {
  return reasons.some((r) => r.code !== undefined && TRANSIENT.has(r.code));
}
