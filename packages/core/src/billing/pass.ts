/**
 * Visit passes (docs/offers.md "Visit passes"): a pay-in-full price carrying `visits`. Pure: the
 * door's count (`passEntry`) and the door standing it leaves (`passDoor`). The visit's transaction
 * (access/visits.ts) writes what `passEntry` says under conditions that make it hold in parallel.
 */
import { aucklandDate, type CivilDate, lastDayOf } from "./calendar";
import type { Standing } from "./subscription-state";

/** A member's pass as their subscription carries it. */
export interface PassState {
  /** Visits bought (and added by staff). */
  visits: number;
  /** Visits used so far: at most one a day. */
  used: number;
  /** The day of the last visit that used one, or null. */
  last_visit_on: CivilDate | null;
  /** The first day the pass no longer opens the door (the pay-in-full span's end). */
  ends_on: CivilDate;
}

export const passMessages = {
  noneLeft: "No visits left on the pass",
  expired: (lastDay: CivilDate) => `The pass expired: its last day was ${lastDay}`,
} as const;

/**
 * A door entry on `day`: whether it uses a visit. An entry on a day that already used one uses no
 * other; an entry after the last visit's day (earlier days' late events included) uses one while
 * any is left; an entry when none is left, or on or after the pass's end, uses none.
 */
export function passEntry(p: PassState, day: CivilDate): { uses_visit: boolean; left: number } {
  const sameDay = p.last_visit_on !== null && day <= p.last_visit_on;
  const uses = !sameDay && day < p.ends_on && p.used < p.visits;
  const used = p.used + (uses ? 1 : 0);
  return { uses_visit: uses, left: Math.max(0, p.visits - used) };
}

/**
 * Door standing on `today` from the pass alone: none from the pass's end; none once no visit is
 * left, except on the day of the last visit (the member paid for that whole day).
 */
export function passDoor(p: PassState, today: CivilDate): { standing: boolean; reason: string } {
  if (today >= p.ends_on) return { standing: false, reason: passMessages.expired(lastDayOf(p.ends_on)) };
  if (p.used >= p.visits && today !== p.last_visit_on)
    return { standing: false, reason: passMessages.noneLeft };
  return { standing: true, reason: `${p.visits - p.used} of ${p.visits} visits left` };
}

/** The pass a subscription carries, or null (not a pass). */
export function passOf(sub: {
  pass_visits?: number | null;
  pass_visits_used?: number | null;
  pass_last_visit_on?: string | null;
  pif_ends_at?: string | null;
}): PassState | null {
  if (!sub.pass_visits || !sub.pif_ends_at) return null;
  return {
    visits: sub.pass_visits,
    used: sub.pass_visits_used ?? 0,
    last_visit_on: sub.pass_last_visit_on ?? null,
    ends_on: aucklandDate(new Date(sub.pif_ends_at)),
  };
}

/**
 * Door standing with a visit pass: the membership's, unless the pass refuses (no visit left after
 * the last visit's day, or the pass ended): then the pass's reason. Not a pass: the membership's.
 */
export function passStanding(sub: Parameters<typeof passOf>[0], now: Date, membership: Standing): Standing {
  const pass = passOf(sub);
  if (!pass) return membership;
  const door = passDoor(pass, aucklandDate(now));
  return door.standing ? membership : door;
}
