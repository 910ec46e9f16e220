/**
 * Door standing from a member's subscriptions (docs/access-control.md): at each gym, and the next
 * moment it may change with no write (the door-access job's `review_at`). Pure; the rule itself is
 * `hasStanding` (billing/subscription-state.ts).
 */
import { addDays, isCivilDate, startOfAucklandDay } from "../billing/calendar";
import { passStanding } from "../billing/pass";
import { hasStanding, type Standing } from "../billing/subscription-state";
import { factsOf } from "../subscription/states";
import type { SubscriptionRecord } from "../subscription/store";

/** A member's standing at each gym: the best of their subscriptions there (the newest that has standing). */
export function standingByGym(subs: SubscriptionRecord[], now: Date): Map<string, Standing> {
  const out = new Map<string, Standing>();
  for (const sub of subs) {
    const s = passStanding(sub, now, hasStanding(factsOf(sub, now)));
    const seen = out.get(sub.gym_id);
    if (!seen || (!seen.standing && s.standing)) out.set(sub.gym_id, s);
  }
  return out;
}

/** The next moment after `now` at which a subscription's standing may change with no write. */
export function nextReview(subs: SubscriptionRecord[], now: Date): string | null {
  const nowIso = now.toISOString();
  const candidates = subs
    .flatMap((s) => [
      s.pause_start_at,
      s.pause_end_at,
      s.cancellation_effective_at,
      s.undo_cancellation_until,
      s.grace_period_ends_at,
      s.pif_ends_at,
      // A pass's last visit: the door closes the next day.
      s.pass_visits && (s.pass_visits_used ?? 0) >= s.pass_visits && s.pass_last_visit_on
        ? addDays(s.pass_last_visit_on, 1)
        : undefined,
    ])
    .filter((v): v is string => Boolean(v))
    // Civil dates (YYYY-MM-DD) mean Auckland midnight starting that day.
    .map((v) => (isCivilDate(v) ? startOfAucklandDay(v).toISOString() : v))
    .filter((v) => v > nowIso)
    .sort();
  return candidates[0] ?? null;
}
