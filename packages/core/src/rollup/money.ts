/** The rollup changes of the money engine's transitions (each added to the transition's transaction). */
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { pauseWindow } from "../billing/subscription-state";
import type { RollupCounter } from "./entity";
import type { OfferFacts, RollupChange, RollupDelta, SubjectFacts } from "./writes";
import {
  cancellationChange,
  offeringMove,
  offeringMoveChanges,
  pauseChanges,
  rollupChange,
  subjectOf,
  trialStopChanges,
} from "./writes";

interface PaymentLike {
  organisation_id: string;
  gym_id: string;
  user_id: string;
  member_name?: string;
  /** Cents a promo code took off (docs/offers.md). */
  discount?: number;
  charge_index?: number;
}
type SubscriptionLike = SubjectFacts & OfferFacts;

/**
 * A payment's change, counted at its gym and its membership's offering; money collected is the
 * member's paid. When it falls due (`expected`, counted once per charge) it also counts the cents
 * a promo code took off it and, for the first paid charge after a trial (charge 1), the trial's
 * conversion (docs/offers.md "Reporting").
 */
export function paymentRollup(
  payment: PaymentLike,
  sub: SubscriptionLike | null | undefined,
  day: CivilDate,
  counted: RollupDelta,
): RollupChange {
  const falls = Boolean(counted.expected_count);
  const delta: RollupDelta = {
    ...counted,
    ...(falls && payment.discount ? { discount_given: payment.discount } : {}),
    ...(falls && sub?.trial_ends_on && payment.charge_index === 1 ? { trials_converted: 1 } : {}),
  };
  return {
    subject: {
      ...(sub ? subjectOf(sub, day) : {}),
      organisation_id: payment.organisation_id,
      gym_id: payment.gym_id,
    },
    day,
    delta,
    member: delta.collected
      ? { user_id: payment.user_id, member_name: payment.member_name, paid: delta.collected }
      : undefined,
  };
}

interface FactsLike extends SubscriptionLike {
  user_id: string;
  start_date?: string;
  balance_owing?: number;
  cancelled_at?: string;
  cancellation_effective_at?: string;
}

/**
 * The rollup changes of a staff change of a membership's facts (lifecycle `commitFacts`, conditional
 * on the version read): a cancellation counts on the day it takes effect (an undo takes it back
 * from that day), a payment recorded as `sent` is collected, and the debt moves by what changed.
 */
export function factsRollup(
  before: FactsLike,
  after: FactsLike,
  extra: (PaymentLike & { status: string; amount: number })[],
  today: CivilDate,
): RollupChange[] {
  const changes: RollupChange[] = [];
  // A scheduled price change to another offering's price (or its removal, or a cancellation that
  // now takes effect first) moves the offering counters on the day it takes effect.
  const moveBefore = JSON.stringify(offeringMove(before));
  if (moveBefore !== JSON.stringify(offeringMove(after)))
    changes.push(...offeringMoveChanges(before, -1), ...offeringMoveChanges(after, 1));
  // A pause added, changed or removed: its window's +1/−1 move with it.
  if (JSON.stringify(pauseWindow(before)) !== JSON.stringify(pauseWindow(after)))
    changes.push(...pauseChanges(before, -1), ...pauseChanges(after, 1));
  const effectiveDay = (at?: string) => (at ? aucklandDate(new Date(at)) : today);
  if (!before.cancelled_at && after.cancelled_at)
    changes.push(
      cancellationChange(before, effectiveDay(after.cancellation_effective_at), 1),
      ...trialStopChanges(before, effectiveDay(after.cancelled_at), 1),
    );
  if (before.cancelled_at && !after.cancelled_at)
    changes.push(
      cancellationChange(before, effectiveDay(before.cancellation_effective_at), -1),
      ...trialStopChanges(before, effectiveDay(before.cancelled_at), -1),
    );
  const owingBefore = before.balance_owing ?? 0;
  const owingAfter = after.balance_owing ?? 0;
  if (owingBefore !== owingAfter)
    changes.push(
      rollupChange(before, today, {
        owing: owingAfter - owingBefore,
        owing_count: (owingAfter > 0 ? 1 : 0) - (owingBefore > 0 ? 1 : 0),
      }),
    );
  for (const p of extra)
    if (p.status === "sent")
      changes.push(paymentRollup(p, before, today, { collected: p.amount, collected_count: 1 }));
  return changes;
}

/** The payment fields the scheduled-payment counters read. */
export interface ScheduledLike {
  organisation_id: string;
  gym_id: string;
  due_on: string;
  status: string;
  type: "stripe_card" | "bank_account" | "pif";
  amount: number;
  surcharge?: number;
  waiting_for?: string;
}

/** What one payment adds to its due day's and gym's scheduled row: nothing unless it is `upcoming`. */
function scheduledPart(p: ScheduledLike | null | undefined, sign: 1 | -1): RollupChange | null {
  if (p?.status !== "upcoming") return null;
  const delta: RollupDelta = p.waiting_for
    ? { scheduled_waiting: sign }
    : {
        scheduled_count: sign,
        scheduled_amount: sign * p.amount,
        scheduled_surcharge: sign * (p.surcharge ?? 0),
        [`scheduled_${p.type}` as RollupCounter]: sign,
      };
  return {
    subject: { organisation_id: p.organisation_id, gym_id: p.gym_id },
    day: p.due_on,
    delta,
    scheduled: true,
  };
}

/**
 * THE change of the scheduled-payment counters (the expected-payments page's days ahead) for a
 * write of one payment, from the payment as the write's condition holds it (`before`: null for a
 * create) to the payment as written (`after`: null for a delete): its old contribution out, its new
 * one in. A payment contributes only while `upcoming` (one waiting for a new bank consent counts
 * apart, `scheduled_waiting`); every write that creates an upcoming payment, changes its amount,
 * surcharge, due date, gym, type or wait, or moves it out of `upcoming` adds this to its own
 * transaction (docs/data-model.md "Rollups"), and the recount adds `scheduledChanges(null, p)`.
 */
export function scheduledChanges(
  before: ScheduledLike | null | undefined,
  after: ScheduledLike | null | undefined,
): RollupChange[] {
  return [scheduledPart(before, -1), scheduledPart(after, 1)].filter((c): c is RollupChange => c !== null);
}
