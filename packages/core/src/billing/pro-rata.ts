/**
 * First payment and pro-rata (domain.md "First payment and pro-rata").
 *
 * A member starts on `start_date`; the price's recurring billing begins on `billing_date` (the first
 * full period starts there and every later period is anchored on it). When the two differ, the first
 * payment (due on the start date) pays for the days from start_date up to billing_date at the daily
 * rate of the full period that ENDS at billing_date, i.e. [billing_date - 1 period, billing_date):
 *
 *   pro_rata_amount = round_half_up(amount × days_between(start_date, billing_date) / days_in_that_period)
 *   first_payment_total = pro_rata_amount + joining_fee
 *
 * Those days lie inside that period, so they are charged at the rate of the period they belong to.
 * Valid when billing_date - 1 period < start_date <= billing_date (so pro_rata_days < period_days).
 */
import { z } from "zod";
import { type CivilDate, civilDateSchema, compareCivilDates, daysBetween } from "./calendar";
import { type BillingFrequency, billingFrequencySchema, isRecurringFrequency } from "./frequency";
import { centsSchema, roundHalfUp } from "./money";
import { periodStart } from "./period";

export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const proRataInputSchema = z.object({
  /** Recurring price amount in cents. */
  amount: centsSchema,
  billing_frequency: billingFrequencySchema,
  /** Joining fee in cents; absent means none. */
  joining_fee: centsSchema.optional(),
  start_date: civilDateSchema,
  billing_date: civilDateSchema,
});
export type ProRataInput = z.input<typeof proRataInputSchema>;

export interface ProRataBreakdown {
  is_pro_rata: boolean;
  /** Days from start_date to billing_date (0 when they are equal). */
  pro_rata_days: number;
  /** Days of the full period the first payment is a share of: the one ending at billing_date when
   *  pro-rata, else the first full period (starting at billing_date). */
  period_days: number;
  /** First day of that period. */
  period_start: CivilDate;
  pro_rata_amount: number;
  joining_fee: number;
  /** The first payment is due on the start date. */
  first_payment_date: CivilDate;
  first_payment_total: number;
  /** billing_date: the first full-amount payment (the first payment itself when not pro-rata). */
  first_full_payment_date: CivilDate;
  recurring_amount: number;
}

export type ProRataErrorCode =
  | "invalid_input"
  | "not_recurring"
  | "billing_date_before_start"
  | "billing_date_too_far";

export class ProRataError extends Error {
  override readonly name = "ProRataError";
  constructor(
    readonly code: ProRataErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** round_half_up(amount × days / periodDays): the share of a period's amount for `days` of it. */
export function proRataAmount(amountCents: number, days: number, periodDays: number): number {
  if (!Number.isSafeInteger(periodDays) || periodDays <= 0) throw new RangeError("periodDays must be > 0");
  if (!Number.isSafeInteger(days) || days < 0) throw new RangeError("days must be >= 0");
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError("amountCents must be >= 0");
  return roundHalfUp(BigInt(amountCents) * BigInt(days), periodDays);
}

function fail(code: ProRataErrorCode, message: string): { ok: false; error: ProRataError } {
  return { ok: false, error: new ProRataError(code, message) };
}

/** The first payment for a member starting on start_date with recurring billing from billing_date. */
export function calculateProRata(input: ProRataInput): Result<ProRataBreakdown, ProRataError> {
  const parsed = proRataInputSchema.safeParse(input);
  if (!parsed.success) {
    return fail(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  const { amount, start_date, billing_date } = parsed.data;
  const frequency: BillingFrequency = parsed.data.billing_frequency;
  const joining_fee = parsed.data.joining_fee ?? 0;
  if (!isRecurringFrequency(frequency)) {
    return fail(
      "not_recurring",
      "A pay-in-full (one_off) price is paid once in full; pro-rata does not apply",
    );
  }
  if (compareCivilDates(billing_date, start_date) < 0) {
    return fail("billing_date_before_start", "The billing date must be on or after the start date");
  }
  if (start_date === billing_date) {
    const end = periodStart(billing_date, 1, frequency);
    return {
      ok: true,
      value: {
        is_pro_rata: false,
        pro_rata_days: 0,
        period_days: daysBetween(billing_date, end),
        period_start: billing_date,
        pro_rata_amount: 0,
        joining_fee,
        first_payment_date: start_date,
        first_payment_total: amount + joining_fee,
        first_full_payment_date: billing_date,
        recurring_amount: amount,
      },
    };
  }
  const denominatorStart = periodStart(billing_date, -1, frequency);
  if (compareCivilDates(start_date, denominatorStart) <= 0) {
    return fail(
      "billing_date_too_far",
      `The billing date must be less than one full period after the start date (start after ${denominatorStart})`,
    );
  }
  const pro_rata_days = daysBetween(start_date, billing_date);
  const period_days = daysBetween(denominatorStart, billing_date);
  const pro_rata_amount = proRataAmount(amount, pro_rata_days, period_days);
  return {
    ok: true,
    value: {
      is_pro_rata: true,
      pro_rata_days,
      period_days,
      period_start: denominatorStart,
      pro_rata_amount,
      joining_fee,
      first_payment_date: start_date,
      first_payment_total: pro_rata_amount + joining_fee,
      first_full_payment_date: billing_date,
      recurring_amount: amount,
    },
  };
}
