/**
 * The business clock: what "now" is for billing, the jobs and the subscription derived states.
 * In AWS it is always the real time. Locally (and in tests) it can be moved
 * (`setBusinessClock`, `advanceBusinessClock`, `/api/dev/clock`) to see next month's billing
 * today. It is stored in the table as an offset from real time, so the API process, the
 * in-process scheduler and `npm run job` in another shell agree, and it keeps ticking.
 *
 * Security timers (sessions, codes, throttles, signed states) never use it: they stay on real
 * time (`new Date()`).
 */
import { addDays, aucklandDate, type CivilDate } from "./billing/calendar";
import { config } from "./config";
import { db } from "./db/service";
import { ForbiddenError } from "./errors";

const CACHE_MS = 1_000;
let cached: { offsetMs: number; readAt: number; table: string } | undefined;

async function offsetMs(): Promise<number> {
  if (!config.isLocal) return 0;
  const table = config.tableName;
  if (cached && cached.table === table && Date.now() - cached.readAt < CACHE_MS) return cached.offsetMs;
  const { data } = await db().entities.businessClock.get({}).go();
  cached = { offsetMs: data?.offset_ms ?? 0, readAt: Date.now(), table };
  return cached.offsetMs;
}

/** Now, for billing: the real time plus the local offset (none in AWS). */
export async function businessNow(): Promise<Date> {
  return new Date(Date.now() + (await offsetMs()));
}

/** The Pacific/Auckland calendar date of the business clock. */
export async function businessToday(): Promise<CivilDate> {
  return aucklandDate(await businessNow());
}

export interface BusinessClockView {
  now: string;
  today: CivilDate;
  /** True while the clock is moved (the staff site shows a banner). */
  simulated: boolean;
  offset_ms: number;
}

export async function readBusinessClock(): Promise<BusinessClockView> {
  const offset = await offsetMs();
  const now = new Date(Date.now() + offset);
  return { now: now.toISOString(), today: aucklandDate(now), simulated: offset !== 0, offset_ms: offset };
}

function localOnly() {
  if (!config.isLocal) throw new ForbiddenError("The business clock can be moved only when running locally.");
}

/** Moves the business clock to `now` (it keeps ticking from there); null puts it back to real time. */
export async function setBusinessClock(now: Date | null): Promise<BusinessClockView> {
  localOnly();
  if (now === null) {
    await db().entities.businessClock.delete({}).go();
  } else {
    await db()
      .entities.businessClock.put({ offset_ms: now.getTime() - Date.now(), set_at: new Date().toISOString() })
      .go();
  }
  cached = undefined;
  return readBusinessClock();
}

/** Moves the business clock forward (or back) by whole days. */
export async function advanceBusinessClock(days: number): Promise<BusinessClockView> {
  localOnly();
  const now = await businessNow();
  return setBusinessClock(new Date(now.getTime() + days * 86_400_000));
}

/** The business date `days` after today (helper for jobs and tests). */
export async function businessDatePlus(days: number): Promise<CivilDate> {
  return addDays(await businessToday(), days);
}

/** Tests that change the table or the clock behind this process's back. */
export function forgetBusinessClockCache() {
  cached = undefined;
}
