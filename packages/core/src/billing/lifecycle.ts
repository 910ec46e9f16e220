/**
 * Lifecycle rules (docs/billing.md "Pauses", "Cancellation, cooling-off, terms", "Price changes",
 * "Manual payments"): pure decisions about what an operation may do and what it costs. They never
 * compute charges themselves: every amount and date comes from the schedule function (schedule.ts),
 * which the operations feed by changing the subscription's facts (pauses, cancellation date, price
 * change). No I/O, no clock: callers pass `today` (the business clock's Auckland date).
 */
import { nzDate } from "../text";
import { addDays, type CivilDate, compareCivilDates, daysBetween } from "./calendar";
import { breakFee, CARD_MINIMUM_CENTS } from "./money";
import { type BillingSchedule, chargeCovering, chargesBetween, type SchedulePause } from "./schedule";

/** A refused operation: the field it concerns and the message staff or the member see (HTTP 422). */
export interface RuleRefusal {
  field: string;
  message: string;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; error: RuleRefusal };

const refuse = (field: string, message: string): { ok: false; error: RuleRefusal } => ({
  ok: false,
  error: { field, message },
});
const before = (a: CivilDate, b: CivilDate) => compareCivilDates(a, b) < 0;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// ---- Pauses ---------------------------------------------------------------------------------------

export interface PauseRequest {
  today: CivilDate;
  /** First paused day. */
  start: CivilDate;
  /** Exclusive: the first day the membership runs again. */
  end: CivilDate;
  pause_days_remaining: number;
  /** The subscription's pauses so far (history). */
  pauses: readonly SchedulePause[];
  /** The date the cancellation takes effect, if cancelled. */
  cancellation_effective: CivilDate | null;
}

/**
 * May this pause be added, and how many credit days does it spend? A pause starts today or later,
 * ends after it starts, does not overlap a pause not yet over, spends `days` = end − start of the
 * member's pause-day credit and is refused when that is more than what is left. A cancelled
 * membership is not paused (nothing would be charged anyway).
 */
export function checkPause(r: PauseRequest): RuleResult<{ days: number; remaining_after: number }> {
  if (before(r.start, r.today)) return refuse("pause_start_at", "A pause cannot start in the past.");
  if (!before(r.start, r.end)) return refuse("pause_end_at", "The pause must end after it starts.");
  if (r.cancellation_effective !== null)
    return refuse("pause_start_at", "A cancelled membership cannot be paused.");
  const open = r.pauses.find((p) => before(r.today, p.end));
  if (open)
    return refuse(
      "pause_start_at",
      `This membership already has a pause from ${nzDate(open.start)} to ${nzDate(open.end)}. Remove it first.`,
    );
  const days = daysBetween(r.start, r.end);
  if (days > r.pause_days_remaining) {
    return refuse(
      "pause_end_at",
      `This pause is ${plural(days, "day")} but only ${plural(r.pause_days_remaining, "pause day")} ${
        r.pause_days_remaining === 1 ? "is" : "are"
      } left.`,
    );
  }
  return { ok: true, value: { days, remaining_after: r.pause_days_remaining - days } };
}

/**
 * Removing a pause: only one that has not started (today < start) can be removed; its days go back
 * to the credit. A pause in progress is ended early instead (`endPauseEarly`).
 */
export function checkRemovePause(
  today: CivilDate,
  pause: SchedulePause,
): RuleResult<{ days_returned: number }> {
  if (!before(today, pause.start))
    return refuse("pause_start_at", "Only a pause that has not started can be removed.");
  return { ok: true, value: { days_returned: daysBetween(pause.start, pause.end) } };
}

// ---- Cancellation -----------------------------------------------------------------------------------

export interface CancellationRequest {
  today: CivilDate;
  immediate: boolean;
  /** The schedule as it stands (without a cancellation). */
  schedule: BillingSchedule;
  /** Term membership facts: the first day after the term, and the first day after cooling-off. */
  term_ends_at: CivilDate | null;
  cooling_period_ends_at: CivilDate | null;
  /** Break fee percentage in basis points (gym override, else organisation default). */
  break_fee_basis_points: number;
}

export interface CancellationTerms {
  /** The first day without membership; nothing is charged for a period starting on or after it. */
  effective: CivilDate;
  /** = effective (undo possible before then). */
  undo_until: CivilDate;
  within_term: boolean;
  in_cooling_off: boolean;
  /** The charges the term still had from `effective` to the term end (cents, joining fee excluded). */
  remaining_term_value: number;
  break_fee: number;
}

/**
 * What a cancellation made `today` means. It takes effect at the end of the paid period (the end
 * of the schedule's period covering today; the start date when the membership has not started),
 * or today when immediate. Inside a term and inside the cooling-off window it is free; inside a term
 * after cooling-off it costs `break_fee_basis_points` of the remaining term value: the sum of the
 * charges the schedule would still have made from the effective date to the term end.
 * Inside a trial (docs/offers.md "Trials") it takes effect at the trial's end and costs nothing.
 */
export function cancellationTerms(r: CancellationRequest): CancellationTerms {
  const s: BillingSchedule = { ...r.schedule, cancellation_effective: null };
  let effective: CivilDate;
  if (r.immediate) effective = r.today;
  else if (before(r.today, s.start_date)) effective = s.start_date;
  else effective = chargeCovering(s, r.today)?.period_end ?? r.today;
  if (before(effective, r.today)) effective = r.today;
  const within_term = r.term_ends_at !== null && before(r.today, r.term_ends_at);
  const in_cooling_off =
    within_term && r.cooling_period_ends_at !== null && before(r.today, r.cooling_period_ends_at);
  const inTrial = s.trial != null && before(r.today, s.trial.end);
  let remaining_term_value = 0;
  if (!inTrial && within_term && !in_cooling_off && r.term_ends_at && before(effective, r.term_ends_at)) {
    remaining_term_value = chargesBetween(s, effective, r.term_ends_at).reduce(
      (sum, c) => sum + c.amount - c.joining_fee,
      0,
    );
  }
  return {
    effective,
    undo_until: effective,
    within_term,
    in_cooling_off,
    remaining_term_value,
    break_fee:
      within_term && !in_cooling_off && !inTrial
        ? breakFee(remaining_term_value, r.break_fee_basis_points)
        : 0,
  };
}

// ---- Price changes ----------------------------------------------------------------------------------

export const DEFAULT_PRICE_CHANGE_NOTICE_DAYS = 30;

export interface PriceChangeRequest {
  today: CivilDate;
  effective: CivilDate;
  /** Cents per period now and after. */
  current_amount: number;
  new_amount: number;
  notice_days: number;
}

/**
 * A price change takes effect on a date after today. A rise (or the same amount) needs the
 * organisation's notice: the effective date at least `notice_days` after today. A decrease may
 * take effect sooner (the member only gains).
 */
export function checkPriceChange(
  r: PriceChangeRequest,
): RuleResult<{ decrease: boolean; notice_given: number }> {
  if (!before(r.today, r.effective))
    return refuse("transition_takes_effect_at", "The new price must take effect after today.");
  const notice_given = daysBetween(r.today, r.effective);
  const decrease = r.new_amount < r.current_amount;
  if (!decrease && notice_given < r.notice_days) {
    return refuse(
      "transition_takes_effect_at",
      `Members must be told ${plural(r.notice_days, "day")} before a price rise: choose ${nzDate(
        addDays(r.today, r.notice_days),
      )} or later.`,
    );
  }
  return { ok: true, value: { decrease, notice_given } };
}

// ---- Manual payments --------------------------------------------------------------------------------

/**
 * A payment taken another way (eftpos, cash, bank transfer) first clears what is owing; the rest is
 * credit ahead, used on later payments (`credit_used`).
 */
export function allocateManualPayment(
  amount: number,
  balance_owing: number,
): { debt_paid: number; credit: number; balance_after: number } {
  const debt_paid = Math.min(amount, balance_owing);
  return { debt_paid, credit: amount - debt_paid, balance_after: balance_owing - debt_paid };
}

/** How much of a payment's amount the credit covers, and the credit left. */
export function applyCredit(amount: number, credit: number): { credit_used: number; credit_left: number } {
  const credit_used = Math.min(amount, credit);
  return { credit_used, credit_left: credit - credit_used };
}

/**
 * The credit a claim spends on a payment of `amount`: all it can, except that what is left to
 * charge is never a positive total below the card minimum (a provider declines it): then the credit
 * leaves the minimum to charge, and keeps the rest for the next payment (docs/billing.md "Prices
 * below the card minimum"). The claim charges by it and the quote of the next money event
 * (payment/quote.ts) shows it, so what a member reads is what is charged.
 */
export function creditToSpend(amount: number, credit: number, surchargeOf: (rest: number) => number): number {
  const { credit_used } = applyCredit(amount, credit);
  const rest = amount - credit_used;
  if (rest === 0 || rest + surchargeOf(rest) >= CARD_MINIMUM_CENTS) return credit_used;
  return Math.max(0, amount - CARD_MINIMUM_CENTS);
}
