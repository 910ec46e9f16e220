/**
 * Money is integer cents NZD. Percentages are integer basis points (1 bp = 0.01 %, 10 000 bp = 100 %),
 * so every calculation is a ratio of integers, done in BigInt and rounded half-up exactly once.
 */
import { z } from "zod";

export const BASIS_POINTS_PER_UNIT = 10_000;

/**
 * The smallest amount a price (or joining fee) may ask, other than $0.00: Stripe's minimum charge
 * in NZD is $0.50 (docs/billing.md "Prices below the card minimum"). A $0.00 period is charged to
 * nobody; an amount between would be declined by the provider every time.
 */
export const CARD_MINIMUM_CENTS = 50;

/** $0.00, or at least the card minimum. */
export function chargeableAmount(cents: number): boolean {
  return cents === 0 || cents >= CARD_MINIMUM_CENTS;
}

export const centsSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** 0 to 10 000 (0 % to 100 %). */
export const basisPointsSchema = z.number().int().min(0).max(BASIS_POINTS_PER_UNIT);

function toBigInt(n: number | bigint, name: string): bigint {
  if (typeof n === "bigint") return n;
  if (!Number.isSafeInteger(n)) throw new RangeError(`${name} must be a safe integer, got ${n}`);
  return BigInt(n);
}

function toSafeNumber(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`Result ${n} is outside the safe integer range`);
  }
  return Number(n);
}

/**
 * numerator / denominator rounded to the nearest integer, halves away from zero
 * (2.5 -> 3, -2.5 -> -3), computed exactly in BigInt. The denominator must not be 0.
 */
export function roundHalfUp(numerator: number | bigint, denominator: number | bigint): number {
  let n = toBigInt(numerator, "numerator");
  let d = toBigInt(denominator, "denominator");
  if (d === 0n) throw new RangeError("denominator must not be 0");
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const negative = n < 0n;
  const a = negative ? -n : n;
  const q = (2n * a + d) / (2n * d); // floor(a/d + 1/2) for a >= 0
  return toSafeNumber(negative ? -q : q);
}

function assertCents(cents: number, name: string): void {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`${name} must be a non-negative integer number of cents, got ${cents}`);
  }
}

function assertBasisPoints(bp: number, name: string): void {
  if (!Number.isSafeInteger(bp) || bp < 0 || bp > BASIS_POINTS_PER_UNIT) {
    throw new RangeError(`${name} must be an integer from 0 to 10000 basis points, got ${bp}`);
  }
}

/** "$1,234.50"; negative "-$5.00". en-NZ dollars, always two decimals, done in integers. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const rest = String(abs % 100).padStart(2, "0");
  return `${negative ? "-" : ""}$${dollars}.${rest}`;
}

/** `cents` × `basisPoints` / 10 000, rounded half-up once. */
export function applyBasisPoints(cents: number, basisPoints: number): number {
  assertCents(cents, "cents");
  assertBasisPoints(basisPoints, "basisPoints");
  return roundHalfUp(BigInt(cents) * BigInt(basisPoints), BASIS_POINTS_PER_UNIT);
}

/** "2.5%" for 250 bp (no trailing zeros; "0%" for 0). */
export function formatBasisPoints(basisPoints: number): string {
  assertBasisPoints(basisPoints, "basisPoints");
  const whole = Math.floor(basisPoints / 100);
  const frac = String(basisPoints % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${whole}${frac ? `.${frac}` : ""}%`;
}

/** Exact parse of a percentage with at most two decimals ("2.5", "2.50%", "10") to basis points; null if not one. */
export function parsePercentToBasisPoints(text: string): number | null {
  const m = /^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return bp <= BASIS_POINTS_PER_UNIT ? bp : null;
}

// ---- Card surcharge ---------------------------------------------------------------------------

export const surchargeSettingsSchema = z.object({
  /** Percentage part in basis points: 250 = 2.5 %. */
  percentBasisPoints: basisPointsSchema,
  /** Fixed part in cents, added per charged payment. */
  fixedCents: centsSchema,
});
export type SurchargeSettings = z.infer<typeof surchargeSettingsSchema>;

/** Bank payments carry no surcharge by default. */
export const noSurcharge: SurchargeSettings = Object.freeze({ percentBasisPoints: 0, fixedCents: 0 });

/**
 * Card surcharge in cents: amount × bp / 10 000 + fixed, rounded half-up once (the fixed part is
 * added before rounding, so it is exact). A zero amount is not charged at all, so its surcharge is 0.
 */
export function surcharge(amountCents: number, settings: SurchargeSettings): number {
  assertCents(amountCents, "amountCents");
  assertBasisPoints(settings.percentBasisPoints, "percentBasisPoints");
  assertCents(settings.fixedCents, "fixedCents");
  if (amountCents === 0) return 0;
  const numerator =
    BigInt(amountCents) * BigInt(settings.percentBasisPoints) +
    BigInt(settings.fixedCents) * BigInt(BASIS_POINTS_PER_UNIT);
  return roundHalfUp(numerator, BASIS_POINTS_PER_UNIT);
}

/** amount + surcharge(amount). */
export function amountWithSurcharge(amountCents: number, settings: SurchargeSettings): number {
  return amountCents + surcharge(amountCents, settings);
}

/** Break fee: `percentBasisPoints` of the remaining term value, rounded half-up once. */
export function breakFee(remainingValueCents: number, percentBasisPoints: number): number {
  return applyBasisPoints(remainingValueCents, percentBasisPoints);
}
