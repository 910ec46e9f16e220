/**
 * The bridge to the dunning rules (billing/dunning.ts): given a subscription's debt and a failed
 * or successful payment, what the debt, grace and next retry become. The rules decide; this file
 * only maps stored records to their inputs and back.
 */
import {
  addDays,
  addMonthsClamped,
  aucklandDate,
  type CivilDate,
  startOfAucklandDay,
} from "../billing/calendar";
import type { OrganisationSettings } from "../organisation/settings";
import type { SubscriptionRecord } from "../subscription/store";
import type { PaymentRecord } from "./store";

export interface DebtAfterFailure {
  balance_owing: number;
  periods_owing: number;
  failed_at: string;
  grace_period_ends_at: string;
  next_retry_on: CivilDate | null;
  hard_declined: boolean;
}

function graceEnd(failedOn: CivilDate, settings: OrganisationSettings): CivilDate {
  const value = settings.failed_payment_grace_period;
  switch (settings.failed_payment_grace_period_unit) {
    case "weeks":
      return addDays(failedOn, value * 7);
    case "months":
      return addMonthsClamped(failedOn, value);
    default:
      return addDays(failedOn, value);
  }
}

/** The retry dates of a run of failures that began on `failedOn`, before grace ends. */
export function retryDates(
  failedOn: CivilDate,
  graceEndsOn: CivilDate,
  settings: OrganisationSettings,
): CivilDate[] {
  return settings.payment_retry_days.map((d) => addDays(failedOn, d)).filter((d) => d < graceEndsOn);
}

export function debtAfterFailure(
  sub: SubscriptionRecord,
  payment: PaymentRecord,
  hard: boolean,
  now: Date,
  settings: OrganisationSettings,
): DebtAfterFailure {
  const failedAt = sub.failed_at ?? now.toISOString();
  const failedOn = aucklandDate(new Date(failedAt));
  const graceEndsAt =
    sub.grace_period_ends_at ?? startOfAucklandDay(graceEnd(failedOn, settings)).toISOString();
  const graceEndsOn = aucklandDate(new Date(graceEndsAt));
  const hardDeclined = sub.hard_declined || hard;
  const retriesDone = sub.retries_done ?? 0;
  const today = aucklandDate(now);
  const next = hardDeclined
    ? null
    : (retryDates(failedOn, graceEndsOn, settings)
        .slice(retriesDone)
        .find((d) => d > today) ?? null);
  return {
    balance_owing: sub.balance_owing + (payment.is_retry ? 0 : payment.amount),
    periods_owing: sub.periods_owing + (payment.is_retry ? 0 : 1),
    failed_at: failedAt,
    grace_period_ends_at: graceEndsAt,
    next_retry_on: next,
    hard_declined: hardDeclined,
  };
}
