/**
 * The bridge between a stored subscription and the pure schedule function (billing/schedule.ts):
 * builds the rules' `BillingSchedule` from the record and asks `chargeAfter`. Nothing here decides
 * an amount or a date; the rules do. In the ledger's layer (layers.test.ts): the billing run plans
 * the next payment with it.
 */
import { aucklandDate, type CivilDate, isCivilDate, startOfAucklandDay } from "../billing/calendar";
import { type DiscountTerms, discountOf } from "../billing/discount";
import { type BillingSchedule, chargeAfter, type ScheduledCharge } from "../billing/schedule";
import type { SubscriptionRecord } from "./store";

/** One charge of the schedule, as the billing machinery stores it on a payment. */
export interface NextCharge {
  /** 0 the first charge (pro-rata stub and/or joining fee), then 1, 2, … */
  index: number;
  due_on: CivilDate;
  period_start: CivilDate;
  /** Exclusive. */
  period_end: CivilDate;
  /** Cents before surcharge, joining fee included, the promo discount taken off. */
  amount: number;
  joining_fee: number;
  is_pro_rata: boolean;
  /** Cents a promo code took off (docs/offers.md); 0 when none. */
  discount: number;
  /** The trial's charge (docs/offers.md "Trials"). */
  is_trial: boolean;
}

export interface PreviousCharge {
  index: number;
  period_end: CivilDate;
}

const civil = (iso: string | undefined | null): CivilDate | null =>
  iso ? (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso : aucklandDate(new Date(iso))) : null;

/** The rules' view of a subscription. */
export function scheduleOf(sub: SubscriptionRecord): BillingSchedule {
  const transition =
    sub.transition_to_amount != null && (sub.transition_takes_effect_at || sub.transition_to_date)
      ? {
          effective: civil(sub.transition_takes_effect_at ?? sub.transition_to_date) as CivilDate,
          amount: sub.transition_to_amount,
        }
      : null;
  return {
    frequency: sub.billing_frequency,
    amount: sub.force_price_amount ?? sub.amount,
    joining_fee: sub.joining_fee || null,
    start_date: sub.start_date,
    billing_date: sub.billing_date,
    pauses: (sub.pauses ?? []).map((p) => ({ start: p.start_date, end: p.end_date })),
    price_change: transition,
    cancellation_effective: sub.cancelled_at ? civil(sub.cancellation_effective_at) : null,
    term_ends_at: civil(sub.term_ends_at),
    pif_ends_at: civil(sub.pif_ends_at),
    // The trial taken when the member joined (docs/offers.md "Trials"): charge 0 at its amount.
    trial: sub.trial_ends_on ? { end: sub.trial_ends_on, amount: sub.trial_amount ?? 0 } : null,
  };
}

/** The promo code's terms snapshotted on the subscription when the member joined (or null). */
export function discountTermsOf(sub: SubscriptionRecord): DiscountTerms | null {
  if (!sub.promo_code_id || !sub.promo_kind || sub.promo_value == null) return null;
  return { kind: sub.promo_kind, value: sub.promo_value, periods: sub.promo_periods ?? null };
}

/**
 * The promo discount of a charge: never of a trial's charge; "the first N periods" count from the
 * first paid charge (after a trial, charge 1 is the first), a stub being before the billing date.
 */
function discountOfCharge(charge: ScheduledCharge, sub: SubscriptionRecord): number {
  const terms = discountTermsOf(sub);
  if (!terms || charge.is_trial) return 0;
  const paidStart = sub.trial_ends_on ?? sub.start_date;
  const paidIndex = charge.index - (sub.trial_ends_on ? 1 : 0);
  return discountOf(terms, { ...charge, index: paidIndex }, sub.billing_date > paidStart);
}

function toNext(charge: ScheduledCharge, sub: SubscriptionRecord): NextCharge {
  const discount = discountOfCharge(charge, sub);
  return {
    index: charge.index,
    due_on: charge.due,
    period_start: charge.period_start,
    period_end: charge.period_end,
    amount: charge.amount - discount,
    joining_fee: charge.joining_fee,
    is_pro_rata: charge.is_pro_rata,
    discount,
    is_trial: charge.is_trial === true,
  };
}

/**
 * The charge after `previous` (null: the first charge), or null when the schedule has no more
 * (PIF paid, cancellation in effect).
 */
export function chargeAfterOf(sub: SubscriptionRecord, previous: PreviousCharge | null): NextCharge | null {
  const charge = chargeAfter(scheduleOf(sub), previous);
  return charge ? toNext(charge, sub) : null;
}

/** What a subscription says of its price and a scheduled change of it. */
export type PriceFacts = Pick<
  SubscriptionRecord,
  | "price_id"
  | "offering_id"
  | "offering_name"
  | "price_label"
  | "amount"
  | "transition_to_price_id"
  | "transition_to_offering_id"
  | "transition_to_offering_name"
  | "transition_to_price_label"
  | "transition_to_amount"
  | "transition_takes_effect_at"
  | "transition_to_date"
>;

/**
 * The price the membership is on at `now`: a scheduled price change, once in effect (its
 * `transition_takes_effect_at` reached), is the price shown everywhere (the member's and staff
 * pages, the members list and export), as it is the one charged (schedule.ts's price change).
 */
export function priceInEffect(sub: PriceFacts, now: Date) {
  const at = changeInstant(sub);
  if (sub.transition_to_price_id && sub.transition_to_amount != null && at <= now.getTime())
    return {
      price_id: sub.transition_to_price_id,
      offering_id: sub.transition_to_offering_id ?? sub.offering_id,
      offering_name: sub.transition_to_offering_name ?? sub.offering_name,
      price_label: sub.transition_to_price_label ?? sub.price_label,
      amount: sub.transition_to_amount,
    };
  return {
    price_id: sub.price_id,
    offering_id: sub.offering_id,
    offering_name: sub.offering_name,
    price_label: sub.price_label,
    amount: sub.amount,
  };
}

/** When the scheduled price change takes effect (ms), NaN without one. */
function changeInstant(sub: PriceFacts): number {
  const effective = sub.transition_takes_effect_at ?? sub.transition_to_date;
  return !effective
    ? Number.NaN
    : isCivilDate(effective)
      ? startOfAucklandDay(effective).getTime()
      : Date.parse(effective);
}

/**
 * The price change still to come at `now` (its new price and first day), or null: none scheduled,
 * or already in effect (then `priceInEffect` is it; tour: the staff card kept "Price change from
 * 5/12/2026" after that day and never named the new price before it).
 */
export function pendingPriceChange(sub: PriceFacts, now: Date) {
  const at = changeInstant(sub);
  if (!sub.transition_to_price_id || sub.transition_to_amount == null || !(at > now.getTime())) return null;
  return {
    price_id: sub.transition_to_price_id,
    label: sub.transition_to_price_label ?? null,
    amount: sub.transition_to_amount,
    takes_effect_on: aucklandDate(new Date(at)),
  };
}

/** The price of the period that starts on `day` (the label a payment of that period carries). */
export function priceOnDay(sub: PriceFacts, day: CivilDate) {
  return priceInEffect(sub, startOfAucklandDay(day));
}
