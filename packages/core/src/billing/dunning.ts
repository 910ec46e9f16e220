/**
 * Dunning: the pure rules for failed payments (docs/billing.md "Dunning"). No I/O, no clock.
 *
 * - Grace: `grace_period_ends_at` = the start (Auckland midnight) of the failure's Auckland date plus the
 *   organisation's grace period (days, weeks = 7 days, or calendar months clamped to month end).
 * - Retries: on the failure's Auckland date plus each retry day, only those whose day starts before
 *   grace ends. Hard declines are not retried.
 * - Debt: failed regular payments add their amount and one period; a successful retry (or a manual
 *   payment that settles debt) pays the debt off oldest period first; a failed retry adds nothing (it
 *   was an attempt at the same debt).
 */
import type { GraceUnit } from "../contract/organisation";
import {
  addDays,
  addMonthsClamped,
  aucklandDate,
  type CivilDate,
  isCivilDate,
  startOfAucklandDay,
} from "./calendar";

/** The organisation's failed-payment grace period (settings: failed_payment_grace_period + _unit). */
export interface GracePeriod {
  value: number;
  unit: GraceUnit;
}

/** The organisation's default retry days (organisation settings `payment_retry_days`). */
export const DEFAULT_RETRY_DAYS: readonly number[] = [1, 3, 5];

function civil(at: Date | CivilDate, name: string): CivilDate {
  if (at instanceof Date) return aucklandDate(at);
  if (!isCivilDate(at))
    throw new RangeError(`${name} must be a Date or a YYYY-MM-DD date, got ${String(at)}`);
  return at;
}

/** The Auckland date on which grace ends (grace covers the days before it). */
export function graceEndDate(failedAt: Date | CivilDate, grace: GracePeriod): CivilDate {
  const day = civil(failedAt, "failedAt");
  if (!Number.isSafeInteger(grace.value) || grace.value < 0)
    throw new RangeError(`grace value must be a whole number >= 0, got ${grace.value}`);
  switch (grace.unit) {
    case "days":
      return addDays(day, grace.value);
    case "weeks":
      return addDays(day, grace.value * 7);
    case "months":
      return addMonthsClamped(day, grace.value);
    default:
      throw new RangeError(`Unknown grace unit: ${String(grace.unit)}`);
  }
}

/**
 * `grace_period_ends_at`: the instant grace ends, Auckland midnight starting graceEndDate. A failure
 * on 1 March (any time of day) with 14 days of grace: grace covers 1-14 March and ends at the start of
 * 15 March. A grace of 0 ends at the start of the failure's own day, i.e. at once.
 */
export function graceEndsAt(failedAt: Date | CivilDate, grace: GracePeriod): Date {
  return startOfAucklandDay(graceEndDate(failedAt, grace));
}

/**
 * The days to retry a failed payment: failedOn + each retry day (sorted, duplicates and days < 1
 * dropped), only those whose day begins before grace ends.
 */
export function retryDates(
  failedOn: Date | CivilDate,
  retryDays: readonly number[] = DEFAULT_RETRY_DAYS,
  graceEnds: Date | CivilDate | null = null,
): CivilDate[] {
  const day = civil(failedOn, "failedOn");
  const endMs =
    graceEnds === null
      ? Number.POSITIVE_INFINITY
      : graceEnds instanceof Date
        ? graceEnds.getTime()
        : startOfAucklandDay(civil(graceEnds, "graceEnds")).getTime();
  const days = [...new Set(retryDays)].filter((d) => Number.isSafeInteger(d) && d >= 1).sort((a, b) => a - b);
  return days.map((d) => addDays(day, d)).filter((d) => startOfAucklandDay(d).getTime() < endMs);
}

// ---- Declines ----------------------------------------------------------------------------------------

export type DeclineKind = "hard" | "soft";

/**
 * Hard declines: retrying cannot succeed until the member acts (new card, new consent, account
 * reopened), and card networks penalise retrying them. Everything else, unknown codes included, is
 * soft: retried on the retry days, bounded by grace.
 */
const hardDeclines: Readonly<Record<string, string>> = {
  // Stripe decline codes (card)
  lost_card: "The card was reported lost.",
  stolen_card: "The card was reported stolen.",
  expired_card: "The card has expired.",
  pickup_card: "The bank asked for the card to be retained (reported lost or stolen).",
  restricted_card: "The card cannot be used for this payment (restricted).",
  card_not_supported: "The card does not support this kind of payment.",
  currency_not_supported: "The card does not support New Zealand dollars.",
  invalid_account: "The card or its account is not valid.",
  incorrect_number: "The card number is incorrect.",
  invalid_number: "The card number is not valid.",
  invalid_expiry_month: "The card's expiry month is not valid.",
  invalid_expiry_year: "The card's expiry year is not valid.",
  new_account_information_available: "The card has been replaced; the member needs to add the new one.",
  revocation_of_authorization: "The member stopped this recurring payment at their bank.",
  revocation_of_all_authorizations: "The member stopped all recurring payments at their bank.",
  stop_payment_order: "The member stopped this payment at their bank.",
  transaction_not_allowed: "The card does not allow this payment.",
  fraudulent: "The bank suspects fraud on this card.",
  merchant_blacklist: "The bank blocked payments to this business.",
  security_violation: "The bank blocked the card for security reasons.",
  authentication_required: "The bank needs the member to authenticate the payment.",
  // Akahu failure codes (bank, enduring consent)
  ACCOUNT_CLOSED: "The bank account is closed.",
  CONSENT_REVOKED: "The member revoked the bank payment consent.",
  CONSENT_EXPIRED: "The bank payment consent has expired.",
  INVALID_ACCOUNT: "The bank account is not valid.",
  ACCOUNT_NOT_FOUND: "The bank account could not be found.",
};

const softDeclines: Readonly<Record<string, string>> = {
  insufficient_funds: "The card has insufficient funds.",
  generic_decline: "The card was declined.",
  do_not_honor: "The card was declined.",
  processing_error: "The card could not be processed.",
  try_again_later: "The bank asked to try again later.",
  issuer_not_available: "The bank could not be reached.",
  card_velocity_exceeded: "The card's spending limit was reached.",
  withdrawal_count_limit_exceeded: "The card's payment count limit was reached.",
  approve_with_id: "The payment could not be authorised.",
  reenter_transaction: "The bank asked to try again.",
  INSUFFICIENT_FUNDS: "The bank account has insufficient funds.",
  DAILY_LIMIT_EXCEEDED: "The bank account's daily payment limit was reached.",
  AFTER_HOURS: "The bank could not send the payment out of hours.",
};

export interface DeclineClassification {
  kind: DeclineKind;
  /** A sentence for the member and staff. */
  reason: string;
}

/** Hard or soft, with a reason. Codes match exactly first (Stripe lower case, Akahu upper case), then ignoring case. */
export function classifyDecline(code: string | null | undefined): DeclineClassification {
  const c = (code ?? "").trim();
  const find = (table: Readonly<Record<string, string>>) =>
    table[c] ?? Object.entries(table).find(([k]) => k.toLowerCase() === c.toLowerCase())?.[1] ?? undefined;
  const hard = find(hardDeclines);
  if (hard) return { kind: "hard", reason: hard };
  return { kind: "soft", reason: find(softDeclines) ?? "The payment failed." };
}

/** True when the decline code means the member must act; such payments are not retried. */
export function isHardDecline(code: string | null | undefined): boolean {
  return classifyDecline(code).kind === "hard";
}

export const hardDeclineCodes = Object.keys(hardDeclines);
export const softDeclineCodes = Object.keys(softDeclines);

// ---- Payment status and debt -------------------------------------------------------------------------

// The debt rule lives in debt.ts (one rule, read by retries, grace expiry, answers and the dashboard).
export {
  balanceOwing,
  type Debt,
  type DunningPayment,
  debt,
  isFailedPaymentStatus,
  nonFailedPaymentStatuses,
  periodsOwing,
} from "./debt";
