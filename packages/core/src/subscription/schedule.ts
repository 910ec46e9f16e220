/**
 * The bridge between a stored subscription and the pure schedule rules (billing/schedule.ts):
 * builds the rules' input from the record and answers the charge after a given one. Nothing here
 * decides an amount or a date; the rules do.
 */
import type { CivilDate } from "../billing/calendar";
import { isRecurringFrequency } from "../billing/frequency";
import { period } from "../billing/period";
import { calculateProRata } from "../billing/pro-rata";
import type { SubscriptionRecord } from "./store";

/** One charge of the schedule, as the billing machinery stores it on a payment. */
export interface NextCharge {
  /** −1 a pro-rata first payment, 0.. the periods from the anchor; PIF is 0. */
  index: number;
  due_on: CivilDate;
  period_start: CivilDate;
  /** Exclusive. */
  period_end: CivilDate;
  /** Cents before surcharge, joining fee included. */
  amount: number;
  joining_fee: number;
  is_pro_rata: boolean;
}

export interface PreviousCharge {
  index: number;
  period_end: CivilDate;
}

/**
 * The charge after `previous` (null: the first charge), or null when the schedule has no more
 * (PIF paid, cancellation in effect, term over without renewal).
 */
export function chargeAfterOf(sub: SubscriptionRecord, previous: PreviousCharge | null): NextCharge | null {
  const amount = sub.force_price_amount ?? sub.amount;
  if (!isRecurringFrequency(sub.billing_frequency)) {
    if (previous) return null;
    return {
      index: 0,
      due_on: sub.start_date,
      period_start: sub.start_date,
      period_end: sub.pif_ends_at ?? sub.start_date,
      amount: amount + sub.joining_fee,
      joining_fee: sub.joining_fee,
      is_pro_rata: false,
    };
  }
  const frequency = sub.billing_frequency;
  let next: NextCharge;
  if (!previous) {
    const first = calculateProRata({
      amount,
      billing_frequency: frequency,
      joining_fee: sub.joining_fee,
      start_date: sub.start_date,
      billing_date: sub.billing_date,
    });
    if (!first.ok) throw first.error;
    const p = period(sub.billing_date, first.value.is_pro_rata ? -1 : 0, frequency);
    next = {
      index: first.value.is_pro_rata ? -1 : 0,
      due_on: sub.start_date,
      period_start: first.value.is_pro_rata ? sub.start_date : p.start,
      period_end: p.end,
      amount: first.value.first_payment_total,
      joining_fee: sub.joining_fee,
      is_pro_rata: first.value.is_pro_rata,
    };
  } else {
    const p = period(sub.billing_date, previous.index + 1, frequency);
    next = {
      index: previous.index + 1,
      due_on: p.start,
      period_start: p.start,
      period_end: p.end,
      amount,
      joining_fee: 0,
      is_pro_rata: false,
    };
  }
  const effective = sub.cancellation_effective_at?.slice(0, 10);
  if (effective && next.period_start >= effective) return null;
  return next;
}
