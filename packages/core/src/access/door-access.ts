/**
 * The `door-access` job (jobs/schedule.ts): standing that changes with time alone (a pause
 * starting, a cancellation taking effect, grace ending) is picked up from each door-access
 * record's `review_at` in the sparse `door_review#<shard>` index, and the member re-synced
 * (sync.ts `syncDoorAccess`).
 */
import { db } from "../db/service";
import { shardPages } from "../db/shard-pages";
import { type DoorAccessRecord, syncDoorAccess } from "./sync";

/** door-access job: re-syncs every member whose record is due for review (a time-driven standing change). */
export async function doorAccessReview(now: Date) {
  const upTo = now.toISOString();
  const summary = { examined: 0, synced: 0, failed: 0 };
  const seen = new Set<string>();
  for await (const items of shardPages({ index: "gsi1", family: "door_review", sortAtMost: `${upTo}~` })) {
    const { data } = db().entities.doorAccess.parse({ Items: items });
    for (const r of data as DoorAccessRecord[]) {
      summary.examined += 1;
      const who = `${r.organisation_id}#${r.user_id}`;
      if (seen.has(who) || r.holder !== "member") continue;
      seen.add(who);
      try {
        await syncDoorAccess(r.organisation_id, r.user_id);
        summary.synced += 1;
      } catch {
        summary.failed += 1;
      }
    }
  }
  return summary;
}
