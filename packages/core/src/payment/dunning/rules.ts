/**
 * The bridge to the dunning rules (billing/dunning.ts): given a subscription, its payments and a
 * failed payment, what the debt, grace and next retry become. The rules decide (grace end, retry
 * dates, hard or soft, balance and periods owing); this file maps stored records to their inputs.
 */
import { aucklandDate, type CivilDate } from "../../billing/calendar";
import { classifyDecline, graceEndsAt, retryDates } from "../../billing/dunning";
import type { OrganisationSettings } from "../../organisation/settings";
import type { SubscriptionRecord } from "../../subscription/store";
import { ledgerDebt } from "../debt";
import type { PaymentRecord } from "../store";

export interface DebtAfterFailure {
  balance_owing: number;
  periods_owing: number;
  failed_at: string;
  grace_period_ends_at: string;
  next_retry_on: CivilDate | null;
  hard_declined: boolean;
}

export { classifyDecline };

/**
 * The debt once `failed` has failed: the ledger's debt (payment/debt.ts) over the subscription's
 * payments (with this one failed), grace from the first failure of the run (kept while grace lasts), and the next retry
 * day after today that is left (none after a hard decline).
 */
export function debtAfterFailure(
  sub: SubscriptionRecord,
  payments: PaymentRecord[],
  failed: PaymentRecord,
  hard: boolean,
  now: Date,
  settings: OrganisationSettings,
): DebtAfterFailure {
  const others = payments.filter((p) => p.payment_id !== failed.payment_id);
  const owed = ledgerDebt([
    ...others,
    { ...failed, status: hard ? "declined" : "failed", settled_at: now.toISOString() },
  ]);
  const failedAt = sub.failed_at ?? now.toISOString();
  const grace = {
    value: settings.failed_payment_grace_period,
    unit: settings.failed_payment_grace_period_unit,
  };
  const graceEnds = sub.grace_period_ends_at ?? graceEndsAt(new Date(failedAt), grace).toISOString();
  const hardDeclined = sub.hard_declined || hard;
  const today = aucklandDate(now);
  const next = hardDeclined
    ? null
    : (retryDates(new Date(failedAt), settings.payment_retry_days, new Date(graceEnds)).find(
        (d) => d > today,
      ) ?? null);
  return {
    balance_owing: owed.balance_owing,
    periods_owing: owed.periods_owing,
    failed_at: failedAt,
    grace_period_ends_at: graceEnds,
    next_retry_on: next,
    hard_declined: hardDeclined,
  };
}
