/**
 * Shards of the table's sparse work indexes (a payment's `due#`, `inflight#`, `reconcile#` keys,
 * dunning's `grace#` and `retry#`, door access's `door_review#`): a key is spread over
 * WORK_SHARDS partitions by a hash of its record's id, and the jobs query each shard.
 */
import { createHash } from "node:crypto";

export const WORK_SHARDS = 8;

/** The shard of a record's id: the same id always lands on the same shard. */
export function shardOf(id: string): number {
  const bytes = createHash("sha256").update(id).digest();
  return bytes[0] % WORK_SHARDS;
}
