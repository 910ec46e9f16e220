/**
 * A promo code's discount on one charge of a schedule (docs/offers.md "Promo codes"). Pure, integer
 * cents; the terms are the ones snapshotted on the subscription when the member joined, so a code
 * edited or archived later never changes what an existing member pays.
 *
 * - Percent codes take `value` basis points of the period part of a charge (never the joining fee),
 *   rounded half-up once; fixed codes take `value` cents, at most the period part.
 * - "First N periods": a pro-rata stub before the first full period is discounted too (it is part
 *   of the first period's time), then the first N full periods; `periods: null` is forever.
 * - The discount never leaves a positive charge below the card minimum: it is cut so that the
 *   minimum is charged (a provider declines less), or, when even that is not possible, nothing is
 *   taken off.
 */
import { CARD_MINIMUM_CENTS, roundHalfUp } from "./money";

export type DiscountKind = "percent" | "fixed";

export interface DiscountTerms {
  kind: DiscountKind;
  /** Basis points (percent) or cents (fixed). */
  value: number;
  /** Full periods discounted; null for as long as the membership lasts. */
  periods: number | null;
}

export interface DiscountedCharge {
  /** 0 the first charge, then 1, 2, … */
  index: number;
  /** Cents before surcharge, joining fee included. */
  amount: number;
  joining_fee: number;
  is_pro_rata: boolean;
}

/**
 * Whether a charge is within the discounted periods. `hasStub`: the schedule starts with a pro-rata
 * stub (its billing date is after its start date), so full period 1 is charge 1, not charge 0.
 */
export function isDiscountedCharge(
  terms: DiscountTerms,
  charge: DiscountedCharge,
  hasStub: boolean,
): boolean {
  if (charge.is_pro_rata) return terms.periods === null || terms.periods > 0;
  if (terms.periods === null) return true;
  const fullPeriod = charge.index + (hasStub ? 0 : 1);
  return fullPeriod <= terms.periods;
}

/** The cents taken off a charge (0 when none). */
export function discountOf(terms: DiscountTerms, charge: DiscountedCharge, hasStub: boolean): number {
  if (!isDiscountedCharge(terms, charge, hasStub)) return 0;
  const periodPart = charge.amount - charge.joining_fee;
  if (periodPart <= 0) return 0;
  const wanted =
    terms.kind === "percent"
      ? roundHalfUp(BigInt(periodPart) * BigInt(terms.value), 10_000n)
      : Math.min(terms.value, periodPart);
  const left = charge.amount - wanted;
  if (left === 0 || left >= CARD_MINIMUM_CENTS) return wanted;
  // A positive remainder below the card minimum: charge the minimum instead.
  return Math.max(0, charge.amount - CARD_MINIMUM_CENTS);
}
