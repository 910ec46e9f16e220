import { db } from "../db/service";
import { epochSeconds } from "./tokens";

/**
 * Fixed-window counters. `hit` records one attempt and returns the count in the current
 * window; `count` reads it; `clear` forgets it (after a success). The window restarts once it
 * has passed. Good enough to slow and refuse guessing; not a billing meter.
 */
export async function throttleCount(key: string, windowSeconds: number): Promise<number> {
  const { data } = await db().entities.throttle.get({ key }).go();
  if (!data || data.window_started_at + windowSeconds <= epochSeconds()) return 0;
  return data.count;
}

export async function throttleHit(key: string, windowSeconds: number): Promise<number> {
  const now = epochSeconds();
  const current = await db().entities.throttle.get({ key }).go();
  if (!current.data || current.data.window_started_at + windowSeconds <= now) {
    await db()
      .entities.throttle.put({ key, count: 1, window_started_at: now, expires_at: now + windowSeconds })
      .go();
    return 1;
  }
  const { data } = await db().entities.throttle.update({ key }).add({ count: 1 }).go({ response: "all_new" });
  return data.count ?? current.data.count + 1;
}

export async function throttleClear(key: string): Promise<void> {
  await db().entities.throttle.delete({ key }).go();
}
