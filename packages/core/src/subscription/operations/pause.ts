/**
 * Pausing (docs/billing.md "Pauses"): staff pause and remove a pause; the member's own
 * (self-service.ts) call the same with their own finder. The rule is billing/lifecycle.ts
 * (`checkPause`, `checkRemovePause`); the facts are committed with lifecycle.ts's `commitFacts`.
 */
import type { Actor } from "../../auth/actor";
import { addDays, type CivilDate } from "../../billing/calendar";
import { checkPause, checkRemovePause } from "../../billing/lifecycle";
import { businessNow, businessToday } from "../../clock";
import { pauseInput } from "../../contract/lifecycle";
import { ConflictError } from "../../errors";
import { newId } from "../../ids";
import { nzDate } from "../../text";
import { parse } from "../../validation";
import { civilOf, commitFacts, instantOf, type SubscriptionFinder, staffChanges } from "../lifecycle";
import { plural, refused } from "./common";

/** `POST /api/subscriptions/{id}/pause`: pause_end_at is the first day the membership runs again. */
export async function pauseSubscription(
  actor: Actor,
  subscriptionId: string,
  body: unknown,
  find: SubscriptionFinder = staffChanges,
) {
  const values = parse(pauseInput, body);
  const sub = await find(actor, subscriptionId);
  const [today, now] = [await businessToday(), await businessNow()];
  const start = civilOf(values.pause_start_at) as CivilDate;
  const end = civilOf(values.pause_end_at) as CivilDate;
  const r = checkPause({
    today,
    start,
    end,
    pause_days_remaining: sub.pause_days_remaining,
    pauses: (sub.pauses ?? []).map((p) => ({ start: p.start_date, end: p.end_date })),
    cancellation_effective: sub.cancelled_at ? (civilOf(sub.cancellation_effective_at) ?? today) : null,
  });
  if (!r.ok) refused(r);
  const pifEnds = civilOf(sub.pif_ends_at);
  return commitFacts(actor, sub, {
    set: {
      paused_at: now.toISOString(),
      pause_start_at: instantOf(start),
      pause_end_at: instantOf(end),
      pause_days_remaining: r.value.remaining_after,
      pauses: [
        ...(sub.pauses ?? []),
        { id: newId(), start_date: start, end_date: end, created_at: now.toISOString() },
      ],
      // A PIF membership has no periods to extend: its end moves by the paused days.
      ...(sub.billing_frequency === "one_off" && pifEnds
        ? { pif_ends_at: instantOf(addDays(pifEnds, r.value.days)) }
        : {}),
    },
    event: {
      action: "pause",
      detail: `Paused from ${nzDate(start)} until ${nzDate(end)} (${plural(r.value.days, "day")}; ${plural(
        r.value.remaining_after,
        "pause day",
      )} left)`,
    },
  });
}

/**
 * `DELETE /api/subscriptions/{id}/pause` (staff) and `DELETE /api/me/subscriptions/{id}/pause` (the
 * member): removes a pause that has not started; its days come back.
 */
export async function removePause(
  actor: Actor,
  subscriptionId: string,
  find: SubscriptionFinder = staffChanges,
) {
  const sub = await find(actor, subscriptionId);
  const today = await businessToday();
  const pending = (sub.pauses ?? []).filter((p) => p.end_date > today);
  const pause = pending.at(-1);
  if (!pause) throw new ConflictError("This membership has no pause to remove.", "no_pause");
  const r = checkRemovePause(today, { start: pause.start_date, end: pause.end_date });
  if (!r.ok) refused(r);
  const pifEnds = civilOf(sub.pif_ends_at);
  return commitFacts(actor, sub, {
    set: {
      pauses: (sub.pauses ?? []).filter((p) => p.id !== pause.id),
      pause_days_remaining: sub.pause_days_remaining + r.value.days_returned,
      ...(sub.billing_frequency === "one_off" && pifEnds
        ? { pif_ends_at: instantOf(addDays(pifEnds, -r.value.days_returned)) }
        : {}),
    },
    remove: ["paused_at", "pause_start_at", "pause_end_at"],
    event: {
      action: "pause_removed",
      detail: `Removed the pause from ${nzDate(pause.start_date)} until ${nzDate(pause.end_date)} (${plural(
        r.value.days_returned,
        "day",
      )} back)`,
    },
  });
}
