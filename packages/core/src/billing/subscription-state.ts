/**
 * Subscription derived states (spec 001 §4), computed in ONE place (docs/billing.md "Derived states").
 * Pure: the caller passes `now` (the business clock). Dates may be ISO instants or civil dates
 * ("YYYY-MM-DD", meaning Auckland midnight starting that day).
 */
import { type CivilDate, isCivilDate, startOfAucklandDay } from "./calendar";
import type { BillingFrequency } from "./frequency";
import { membershipTypeLabel, type TermUnit } from "./term";

/** An ISO instant ("2026-03-01T10:00:00.000Z") or a civil date ("2026-03-01" = Auckland midnight). */
export type When = string | CivilDate;

/** The subscription fields the derived states read (spec 001 §3 names), plus `now`. */
export interface SubscriptionFacts {
  now: Date;
  /** The price's billing frequency ("one_off" = PIF). */
  billing_frequency: BillingFrequency;
  /** The price's term, for the membership type label. */
  term_amount?: number | null;
  term_unit?: TermUnit | null;
  paused_at?: When | null;
  pause_start_at?: When | null;
  /** Exclusive: the first moment not paused. */
  pause_end_at?: When | null;
  cancelled_at?: When | null;
  /** When the cancellation takes effect; absent: undo_cancellation_until, else current_period_end. */
  cancellation_effective_at?: When | null;
  undo_cancellation_until?: When | null;
  grace_period_ends_at?: When | null;
  upcoming_state?: "upcoming" | "failed" | null;
  transition_to_price?: string | null;
  transition_takes_effect_at?: When | null;
  current_period_end?: When | null;
  is_term_membership?: boolean | null;
  term_ends_at?: When | null;
  cooling_period_ends_at?: When | null;
  pif_ends_at?: When | null;
  /** Cents owed; a PIF membership owes its price until the bank transfer is marked received. */
  balance_owing?: number | null;
}

export type CardColour = "green" | "amber" | "red";

export interface Standing {
  /** May hold a door credential. */
  standing: boolean;
  reason: string;
}

export interface SubscriptionState {
  /** Spec: now is after pause start; also shown when a pause is in the future (until it ends). */
  paused: boolean;
  pause_in_future: boolean;
  paused_now: boolean;
  /** cancelled_at set. */
  cancelled: boolean;
  cancellation_effective_at: Date | null;
  /** Cancelled and the cancellation has taken effect ("cancelled now"). */
  cancellation_taken_effect: boolean;
  undo_cancellation_possible: boolean;
  /** grace_period_ends_at set. */
  in_grace_period: boolean;
  grace_period_over: boolean;
  /** upcoming_state set and not cancelled. */
  upcoming: boolean;
  upcoming_state: "upcoming" | "failed" | null;
  /**
   * A pay-in-full membership whose price is still owed: its bank transfer not yet marked received
   * (not cancelled, not ended). No door access, and not "Active" (tour: the member's and the staff
   * badge said "Active" while the doors said no).
   */
  awaiting_transfer: boolean;
  /** Not paused, cancelled, in grace period, upcoming or awaiting its transfer. */
  active: boolean;
  card_colour: CardColour;
  on_cooling_period: boolean;
  membership_type_label: string;
  has_scheduled_price_change: boolean;
  /** transition_takes_effect_at, else the period end; null without a scheduled change. */
  price_change_takes_effect_at: Date | null;
  start_now_offered: boolean;
  /** What staff may do to it now: the staff card offers exactly these. */
  actions: OfferedActions;
  door: Standing;
}

/**
 * The lifecycle actions offered on the staff membership card and the member's `/membership` (docs/billing.md "Derived states"),
 * each true when the card shows it. The API answers them as `actions`, so no site repeats the rule.
 */
export interface OfferedActions {
  /** Not cancelled, and no pause that is not over (one pause at a time; a PIF's end moves by its days). */
  pause: boolean;
  /** A booked pause that has not started (a pause in progress cannot be removed). */
  remove_pause: boolean;
  /** Not cancelled. */
  cancel: boolean;
  /** undo_cancellation_possible. */
  undo_cancellation: boolean;
  /** start_now_offered. */
  start_now: boolean;
  /** Not PIF, and not cancelled past undoing. */
  manual_payment: boolean;
}

function instant(value: When | null | undefined): Date | null {
  if (value == null || value === "") return null;
  if (isCivilDate(value)) return startOfAucklandDay(value);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new RangeError(`Not a date or instant: ${JSON.stringify(value)}`);
  return d;
}

const at = (d: Date) => d.getTime();

/**
 * A subscription's pause: from pause_start_at (or paused_at) until pause_end_at (exclusive;
 * open-ended if none). Null without a pause. The dashboard's `paused` counter counts this window.
 */
export function pauseWindow(
  f: Pick<SubscriptionFacts, "pause_start_at" | "paused_at" | "pause_end_at">,
): { start: Date; end: Date | null } | null {
  const start = instant(f.pause_start_at) ?? instant(f.paused_at);
  return start ? { start, end: instant(f.pause_end_at) } : null;
}

/** Every derived state of one subscription at `now`. */
export function deriveSubscriptionState(f: SubscriptionFacts): SubscriptionState {
  const now = at(f.now);
  if (Number.isNaN(now)) throw new RangeError("now must be a valid Date");

  // Paused: a pause exists from pause_start_at (or paused_at) until pause_end_at (open-ended if none).
  const pause = pauseWindow(f);
  const pauseStart = pause?.start ?? null;
  const pauseEnd = pause?.end ?? null;
  const pauseNotOver = pauseStart !== null && (pauseEnd === null || now < at(pauseEnd));
  const pause_in_future = pauseNotOver && pauseStart !== null && now < at(pauseStart);
  const paused_now = pauseNotOver && !pause_in_future;
  const paused = pauseNotOver;

  const cancelled = instant(f.cancelled_at) !== null;
  const cancellation_effective_at = cancelled
    ? (instant(f.cancellation_effective_at) ??
      instant(f.undo_cancellation_until) ??
      instant(f.current_period_end))
    : null;
  // Cancelled with no effect date known: treated as in effect (the safe side for door access).
  const cancellation_taken_effect =
    cancelled && (cancellation_effective_at === null || now >= at(cancellation_effective_at));
  const undoUntil = instant(f.undo_cancellation_until);
  const undo_cancellation_possible = cancelled && undoUntil !== null && now < at(undoUntil);

  const graceEnds = instant(f.grace_period_ends_at);
  const in_grace_period = graceEnds !== null;
  const grace_period_over = graceEnds !== null && now >= at(graceEnds);

  const upcoming_state = f.upcoming_state ?? null;
  const upcoming = upcoming_state !== null && !cancelled;

  // The door rule's "Pay-in-full payment not received" (below), as a state of a live membership.
  const pifEnds = instant(f.pif_ends_at);
  const awaiting_transfer =
    f.billing_frequency === "one_off" &&
    (f.balance_owing ?? 0) > 0 &&
    !cancelled &&
    !upcoming &&
    (pifEnds === null || now < at(pifEnds));
  const active = !paused && !cancelled && !in_grace_period && !upcoming && !awaiting_transfer;

  const card_colour: CardColour =
    cancelled && (cancellation_taken_effect || in_grace_period)
      ? "red"
      : paused || in_grace_period || upcoming || awaiting_transfer
        ? "amber"
        : "green";

  const termEnds = instant(f.term_ends_at);
  const withinTerm = f.is_term_membership === true && (termEnds === null || now < at(termEnds));
  const coolingEnds = instant(f.cooling_period_ends_at);
  const on_cooling_period = withinTerm && coolingEnds !== null && now < at(coolingEnds);

  const has_scheduled_price_change = f.transition_to_price != null && f.transition_to_price !== "";
  const price_change_takes_effect_at = has_scheduled_price_change
    ? (instant(f.transition_takes_effect_at) ?? instant(f.current_period_end))
    : null;

  const isPif = f.billing_frequency === "one_off";
  const start_now_offered = !cancelled && upcoming && !isPif;
  const actions: OfferedActions = {
    pause: !cancelled && !paused,
    remove_pause: pause_in_future,
    cancel: !cancelled,
    undo_cancellation: undo_cancellation_possible,
    start_now: start_now_offered,
    manual_payment: !isPif && (!cancelled || undo_cancellation_possible),
  };

  const state = {
    paused,
    pause_in_future,
    paused_now,
    cancelled,
    cancellation_effective_at,
    cancellation_taken_effect,
    undo_cancellation_possible,
    in_grace_period,
    grace_period_over,
    upcoming,
    upcoming_state,
    awaiting_transfer,
    active,
    card_colour,
    on_cooling_period,
    membership_type_label: membershipTypeLabel({
      billing_frequency: f.billing_frequency,
      term_amount: f.term_amount,
      term_unit: f.term_unit,
    }),
    has_scheduled_price_change,
    price_change_takes_effect_at,
    start_now_offered,
    actions,
  };
  return { ...state, door: standing(state, f) };
}

/**
 * The door standing rule (domain.md): active, or cancelled but inside the paid period, and not past
 * grace and not paused. So: in grace (not yet over) keeps access; a future pause keeps access until it
 * starts; a subscription that has not started (upcoming_state set, even if cancelled) or whose first
 * payment failed has none; a PIF
 * membership has none from pif_ends_at, nor while its payment is owed (a bank transfer not yet
 * marked received).
 */
function standing(s: Omit<SubscriptionState, "door">, f: SubscriptionFacts): Standing {
  if (s.cancellation_taken_effect) return { standing: false, reason: "Cancelled" };
  if (s.paused_now) return { standing: false, reason: "Paused" };
  if (s.grace_period_over) return { standing: false, reason: "Failed payment grace period is over" };
  // Not started (or first payment failed) has no access, whether or not it was then cancelled.
  if (s.upcoming_state !== null)
    return {
      standing: false,
      reason: s.upcoming_state === "failed" ? "First payment failed" : "Membership has not started",
    };
  const pifEnds = instant(f.pif_ends_at);
  if (f.billing_frequency === "one_off" && pifEnds !== null && at(f.now) >= at(pifEnds))
    return { standing: false, reason: "Pay-in-full membership has ended" };
  if (f.billing_frequency === "one_off" && (f.balance_owing ?? 0) > 0)
    return { standing: false, reason: "Pay-in-full payment not received" };
  if (s.cancelled) return { standing: true, reason: "Cancelled, inside the paid period" };
  if (s.in_grace_period) return { standing: true, reason: "Payment failed, inside the grace period" };
  return { standing: true, reason: "Active" };
}

/** The door standing rule alone (see deriveSubscriptionState). */
export function hasStanding(f: SubscriptionFacts): Standing {
  return deriveSubscriptionState(f).door;
}

/**
 * Spec §4: a new PIF membership can be added only if there is no subscription, or none with a
 * scheduled price change and none upcoming. Pass the member's subscriptions (with the same `now`).
 */
export function canAddPif(subscriptions: readonly SubscriptionFacts[]): boolean {
  return subscriptions.every((s) => {
    const d = deriveSubscriptionState(s);
    return !d.has_scheduled_price_change && !d.upcoming;
  });
}
