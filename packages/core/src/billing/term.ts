/**
 * Term memberships: a price with `term_amount` + `term_unit` (e.g. 12 months). The term covers
 * [start, termEnd): termEnd is the first day after the term (like a period's exclusive end).
 */
import { z } from "zod";
import { addDays, addMonthsClamped, type CivilDate, compareCivilDates } from "./calendar";
import { type BillingFrequency, isRecurringFrequency } from "./frequency";
import { centsSchema } from "./money";
import { periodContaining } from "./period";

/** Term units. Days are not a unit: a fixed span of days is a pay-in-full (one_off) price. */
export const termUnits = ["weeks", "months", "years"] as const;
export const termUnitSchema = z.enum(termUnits);
export type TermUnit = z.infer<typeof termUnitSchema>;

export const termAmountSchema = z.number().int().min(1).max(1200);

/** Unit initials used in the formatted term ("12M Term"). */
export const termUnitInitial: Readonly<Record<TermUnit, string>> = { weeks: "W", months: "M", years: "Y" };

function assertTermAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 1) {
    throw new RangeError(`term amount must be a positive integer, got ${amount}`);
  }
}

/** First day after the term: start + amount weeks (7-day), months (clamped) or years (12 months, clamped). */
export function termEnd(start: CivilDate, amount: number, unit: TermUnit): CivilDate {
  assertTermAmount(amount);
  switch (unit) {
    case "weeks":
      return addDays(start, amount * 7);
    case "months":
      return addMonthsClamped(start, amount);
    case "years":
      return addMonthsClamped(start, amount * 12);
    default:
      throw new RangeError(`Unknown term unit: ${String(unit)}`);
  }
}

/**
 * Payments due in the term: the number of period starts, anchored at `start`, in [start, end).
 * A one_off (PIF) price is one payment.
 */
export function paymentsInTerm(start: CivilDate, end: CivilDate, frequency: BillingFrequency): number {
  if (!isRecurringFrequency(frequency)) return 1;
  if (compareCivilDates(end, start) <= 0) return 0;
  return periodContaining(start, addDays(end, -1), frequency).index + 1;
}

/**
 * Total value of a term: amount × payments in the term starting on `start` (one_off: the amount).
 * The start date matters for day-based frequencies, because months differ in length (weekly over
 * 6 months is 26 or 27 payments). Quote a price with today's Auckland date as `start`.
 */
export function totalValue(
  amountCents: number,
  frequency: BillingFrequency,
  termAmount: number,
  termUnit: TermUnit,
  start: CivilDate,
): number {
  centsSchema.parse(amountCents);
  if (!isRecurringFrequency(frequency)) return amountCents;
  return amountCents * paymentsInTerm(start, termEnd(start, termAmount, termUnit), frequency);
}

/** "12M Term", "6W Term", "1Y Term": amount, unit initial, "Term" (spec §4). */
export function formatTerm(amount: number, unit: TermUnit): string {
  assertTermAmount(amount);
  const initial = termUnitInitial[unit];
  if (!initial) throw new RangeError(`Unknown term unit: ${String(unit)}`);
  return `${amount}${initial} Term`;
}

export interface PriceTerm {
  billing_frequency: BillingFrequency;
  term_amount?: number | null;
  term_unit?: TermUnit | null;
}

/**
 * A term membership (a commitment billed period by period, with cooling-off and a break fee) is a
 * recurring price with both a term amount and a term unit. A pay-in-full price's term is the span
 * it pays for (`pifEnd`), not a commitment: nothing is left to charge, so it is not a term membership.
 */
export function isTermMembership(price: PriceTerm): boolean {
  return price.billing_frequency !== "one_off" && price.term_amount != null && price.term_unit != null;
}

/** Membership type shown (spec §4): "PIF" for one_off, else the formatted term, else "Flexi". */
export function membershipTypeLabel(price: PriceTerm): string {
  if (price.billing_frequency === "one_off") return "PIF";
  if (price.term_amount != null && price.term_unit != null)
    return formatTerm(price.term_amount, price.term_unit);
  return "Flexi";
}

/**
 * The span before a price said how long it covers: a pay-in-full price made before a term was
 * required of it (prices.ts validation) covers 12 months. New PIF prices always carry their term.
 */
export const LEGACY_PIF_MONTHS = 12;

/**
 * `pif_ends_at` of a pay-in-full membership starting on `start`: the first day after the price's
 * term (exclusive, like `termEnd`), so a 3-month pass from 10 Dec ends on 10 Mar, 10 weeks from
 * 2 Jun on 11 Aug, 2 years from 29 Feb 2024 on 28 Feb 2026. Pauses move it later (subscription/operations/pause.ts).
 */
export function pifEnd(
  start: CivilDate,
  price: Omit<PriceTerm, "billing_frequency"> & { valid_days?: number | null },
): CivilDate {
  // A visit pass valid for days (docs/offers.md "Visit passes"): expires valid_days after its start.
  if (price.valid_days) return addDays(start, price.valid_days);
  return price.term_amount != null && price.term_unit != null
    ? termEnd(start, price.term_amount, price.term_unit)
    : addMonthsClamped(start, LEGACY_PIF_MONTHS);
}
