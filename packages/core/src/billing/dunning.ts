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

/** Spec 001 §4: these statuses are not failed; any other value counts as failed. */
export const nonFailedPaymentStatuses = ["sent", "upcoming", "pending_request", "awaiting_payment"] as const;

export function isFailedPaymentStatus(status: string): boolean {
  return !(nonFailedPaymentStatuses as readonly string[]).includes(status);
}

/** What debt needs of a payment. */
export interface DunningPayment {
  status: string;
  /** Cents charged (before surcharge). */
  amount: number;
  is_retry: boolean;
  /** A successful non-retry payment that pays debt off (a manual payment staff record). */
  settles_debt?: boolean;
  /** Orders the payments; when absent the given order is kept. */
  created_at?: string;
}

export interface Debt {
  /** Cents still owing. */
  balance_owing: number;
  /** Failed periods not yet fully paid. */
  periods_owing: number;
}

/**
 * The debt left by a member's payments, in order of created_at: a failed regular payment adds its
 * amount as one period owing; a `sent` retry or debt-settling payment pays off its amount, oldest
 * period first (anything beyond the debt is not debt: it is credit, handled as credit_used); a failed
 * retry adds nothing.
 */
export function debt(payments: readonly DunningPayment[]): Debt {
  const ordered = payments
    .map((p, i) => ({ p, i }))
    .sort((a, b) => {
      const x = a.p.created_at;
      const y = b.p.created_at;
      if (x && y && x !== y) return x < y ? -1 : 1;
      return a.i - b.i;
    })
    .map(({ p }) => p);
  const owing: number[] = []; // remaining cents per failed period, oldest first
  for (const p of ordered) {
    if (!Number.isSafeInteger(p.amount) || p.amount < 0)
      throw new RangeError(`payment amount must be whole cents >= 0, got ${p.amount}`);
    if (p.status === "sent" && (p.is_retry || p.settles_debt)) {
      let left = p.amount;
      while (left > 0 && owing.length > 0) {
        const paid = Math.min(left, owing[0]);
        owing[0] -= paid;
        left -= paid;
        if (owing[0] === 0) owing.shift();
      }
    } else if (!p.is_retry && isFailedPaymentStatus(p.status) && p.amount > 0) {
      owing.push(p.amount);
    }
  }
  return { balance_owing: owing.reduce((s, n) => s + n, 0), periods_owing: owing.length };
}

/** Cents owing from failed payments not settled by a retry or manual payment. */
export function balanceOwing(payments: readonly DunningPayment[]): number {
  return debt(payments).balance_owing;
}

/** Failed periods not yet fully paid. */
export function periodsOwing(payments: readonly DunningPayment[]): number {
  return debt(payments).periods_owing;
}
