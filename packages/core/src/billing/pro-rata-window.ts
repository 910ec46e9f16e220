/**
 * The billing dates a start date may be paired with for pro-rata: from the start date itself up to
 * the last date whose full period (ending at it) still begins before the start date. Used to say
 * exactly which billing date is the latest allowed when one is too far (docs/billing.md).
 */
import { addDays, type CivilDate, compareCivilDates } from "./calendar";
import type { RecurringFrequency } from "./frequency";
import { periodStart } from "./period";

/** True when calculateProRata accepts this pair (start ≤ billing < start + one period, measured from billing). */
export function isProRataBillingDateAllowed(
  start: CivilDate,
  billing: CivilDate,
  frequency: RecurringFrequency,
): boolean {
  if (compareCivilDates(billing, start) < 0) return false;
  return billing === start || compareCivilDates(periodStart(billing, -1, frequency), start) < 0;
}

/**
 * The latest billing date allowed with this start date. The allowed dates are one unbroken run
 * from the start date (the period before a date only moves forward as the date does), so this
 * walks forward from the day before "start + one period" while the next day is still allowed;
 * month clamping makes that at most a few days.
 */
export function latestProRataBillingDate(start: CivilDate, frequency: RecurringFrequency): CivilDate {
  let latest = start;
  const candidate = addDays(periodStart(start, 1, frequency), -1);
  if (isProRataBillingDateAllowed(start, candidate, frequency)) latest = candidate;
  while (isProRataBillingDateAllowed(start, addDays(latest, 1), frequency)) latest = addDays(latest, 1);
  return latest;
}
