/**
 * A visit pass's count in the visit's transaction (docs/offers.md "Visit passes", "Counted exactly
 * once, in parallel"): the subscription's `pass_visits_used + 1` and the day of the visit, on the
 * condition that a visit is left and the day is after the last counted one. The rule itself is
 * billing/pass.ts `passEntry`; the condition makes it hold whatever runs beside it.
 */
import type { CivilDate } from "../billing/calendar";
import { passEntry, passOf } from "../billing/pass";
import type { SubscriptionRecord } from "../subscription/store";

/** The pass's write for an entry on `day`, or null when the entry uses no visit (or it is no pass). */
export function passVisitWrite(sub: SubscriptionRecord | null, day: CivilDate) {
  const pass = sub ? passOf(sub) : null;
  if (!sub || !pass) return null;
  const entry = passEntry(pass, day);
  if (!entry.uses_visit) return null;
  return {
    /** Visits left once this one is used (as read: the condition guards it). */
    left: entry.left,
    // biome-ignore lint/suspicious/noExplicitAny: the transaction's subscription entity
    item: (subscription: any) =>
      subscription
        .patch({ organisation_id: sub.organisation_id, subscription_id: sub.subscription_id })
        .add({ pass_visits_used: 1 })
        .set({ pass_last_visit_on: day })
        .where(
          (a: Record<string, string>, op: Record<string, (...x: unknown[]) => string>) =>
            `${op.name(a.pass_visits_used)} < ${op.name(a.pass_visits)} AND (${op.notExists(a.pass_last_visit_on)} OR ${op.lt(a.pass_last_visit_on, day)})`,
        )
        .commit({ response: "all_old" }),
  };
}
