/**
 * The quote of a member's next money event (issue 34; docs/billing.md "The quote of the next money
 * event"): the one place that says what will be taken, from what, for what and when. The member's
 * page, the staff card, the cancel dialogs, the reminder and the welcome page all show this quote;
 * none of them adds a surcharge or spends credit itself.
 *
 * It follows the claim (jobs/billing-run.ts `claimOne`) rule for rule: credit ahead pays a payment
 * first (never a retry of the balance), the rest is surcharged by `surchargeOfCharge` for the
 * method the member pays with **now** (the subscription's default payment method, which the claim
 * charges, not the one the payment was planned with).
 */
import { aucklandDate, type CivilDate, isCivilDate, lastDayOf } from "../billing/calendar";
import { creditToSpend } from "../billing/lifecycle";
import { formatCents } from "../billing/money";
import { isBreakFee, nextUpcoming } from "../contract/payment";
import type { MoneyQuote, QuoteKind } from "../contract/quote";
import { emailDate } from "../email/format";
import type { OrganisationSettings } from "../organisation/settings";
import { paymentTypeLabel } from "../payment-type/present";
import { findPaymentType, type PaymentTypeRecord } from "../payment-type/service";
import { chargeAfterOf, priceOnDay } from "../subscription/schedule";
import type { SubscriptionRecord } from "../subscription/store";
import { type BillingContext, freshContext } from "./context";
import type { PaymentGym } from "./new-payment";
import type { PaymentRecord } from "./store";
import { surchargeOfCharge } from "./surcharge";

type Rates = Pick<OrganisationSettings, "card_surcharge_basis_points" | "card_surcharge_fixed_cents">;

/** The payment method as the quote needs it (a stored payment type, or what is known of it). */
export interface QuoteMethod {
  type: string;
  card_type?: string | null;
  last_four?: string | null;
  account_number?: string | null;
}

export interface QuoteFacts {
  kind: QuoteKind;
  amount: number;
  /** Credit ahead held now (spent on anything but a retry of the balance or a transfer). */
  credit_balance: number;
  balance_owing: number;
  method: QuoteMethod;
  rates: Rates;
  gym: PaymentGym;
  due_on: CivilDate | null;
  period_start?: CivilDate | null;
  /** Exclusive. */
  period_end?: CivilDate | null;
  label?: string | null;
}

const titles: Record<QuoteKind, string> = {
  next_payment: "Next payment",
  balance_owing: "Payment owed",
  break_fee: "Break fee",
  awaiting_transfer: "Awaiting bank transfer",
};

const kindLabels: Record<string, string> = {
  stripe_card: "Card",
  bank_account: "Bank account",
  bank_transfer: "Bank transfer",
  eftpos: "EFTPOS",
  cash: "Cash",
};

/** The method as a person reads it: the card or account when known, else its kind. */
export function methodLabel(method: QuoteMethod): string {
  if (method.type === "stripe_card" || method.type === "bank_account")
    return method.last_four || method.account_number || method.card_type
      ? paymentTypeLabel(method)
      : (kindLabels[method.type] ?? method.type);
  return kindLabels[method.type] ?? method.type;
}

/** Pure: the figures of one money event. */
export function quoteOf(facts: QuoteFacts): MoneyQuote {
  const spendsCredit = facts.kind === "next_payment" || facts.kind === "break_fee";
  const held = spendsCredit ? facts.credit_balance : 0;
  // The claim's own rule (billing/lifecycle.ts creditToSpend): the total never falls below the card minimum.
  const credit_used = creditToSpend(facts.amount, held, (rest) =>
    surchargeOfCharge(facts.method.type, rest, facts.rates, facts.gym),
  );
  const credit_left = held - credit_used;
  const left = facts.amount - credit_used;
  const surcharge = surchargeOfCharge(facts.method.type, left, facts.rates, facts.gym);
  const total = left + surcharge;
  const method = { type: facts.method.type, label: methodLabel(facts.method) };
  const when = facts.due_on ? ` on ${emailDate(facts.due_on)}` : "";
  const from = facts.kind === "awaiting_transfer" ? " by bank transfer" : ` from ${method.label}`;
  const credit = credit_used
    ? total === 0
      ? ` (paid from your credit of ${formatCents(facts.credit_balance)})`
      : ` (${formatCents(credit_used)} paid from your credit)`
    : "";
  const surcharged = surcharge ? `, including a ${formatCents(surcharge)} card surcharge` : "";
  return {
    kind: facts.kind,
    title: titles[facts.kind],
    label: facts.label ?? null,
    due_on: facts.due_on,
    period_start: facts.period_start ?? null,
    period_last_day: facts.period_end ? lastDayOf(facts.period_end) : null,
    amount: facts.amount,
    formatted_amount: formatCents(facts.amount),
    credit_applied: credit_used,
    formatted_credit_applied: formatCents(credit_used),
    surcharge,
    formatted_surcharge: formatCents(surcharge),
    total,
    formatted_total: formatCents(total),
    balance_owing: facts.balance_owing,
    formatted_balance_owing: formatCents(facts.balance_owing),
    credit_balance: facts.credit_balance,
    credit_after: spendsCredit ? credit_left : facts.credit_balance,
    formatted_credit_after: formatCents(spendsCredit ? credit_left : facts.credit_balance),
    payment_method: method,
    summary: `${formatCents(total)}${when}${total ? from : ""}${surcharged}${credit}`,
  };
}

const civil = (iso: string | null | undefined): CivilDate | null =>
  iso ? (isCivilDate(iso) ? iso : aucklandDate(new Date(iso))) : null;

/** The subscription's method given its default payment type as read (null: absent or removed). */
export function methodOf(sub: SubscriptionRecord, type: PaymentTypeRecord | null | undefined): QuoteMethod {
  if (type && type.status !== "removed") return type;
  return { type: sub.payment_method === "pif" ? "stripe_card" : sub.payment_method };
}

/**
 * The subscription's method from the member's payment types as the caller read them in this request
 * (`listPaymentTypeRecords`): no read of its own.
 */
export function methodAmong(
  sub: SubscriptionRecord,
  paymentTypes: readonly PaymentTypeRecord[],
): QuoteMethod {
  const type = sub.payment_type_id
    ? paymentTypes.find((p) => p.payment_type_id === sub.payment_type_id)
    : null;
  return methodOf(sub, type);
}

/** What the subscription pays with now: its default payment type (what the claim charges). */
export async function currentMethod(sub: SubscriptionRecord): Promise<QuoteMethod> {
  const type = sub.payment_type_id
    ? await findPaymentType(sub.organisation_id, sub.user_id, sub.payment_type_id)
    : null;
  return methodOf(sub, type);
}

/**
 * The subscription's next money event, from its payments (the member's ledger as read): a pay-in-full
 * transfer not yet received, else the balance owing (retried whole, by the method it has now), else
 * the next planned payment (a break fee after a cancellation). Null when nothing more is to be paid.
 */
export async function quoteNextEvent(
  sub: SubscriptionRecord,
  payments: readonly PaymentRecord[],
  context: BillingContext = freshContext,
  /** The method when the caller has read it already (a list reads a page's payment types at once). */
  known?: QuoteMethod,
): Promise<MoneyQuote | null> {
  const mine = payments.filter((p) => p.subscription_id === sub.subscription_id);
  const awaiting = mine.find((p) => p.status === "awaiting_payment");
  const upcoming = nextUpcoming(mine);
  const owing = sub.balance_owing ?? 0;
  if (!awaiting && !upcoming && owing <= 0) return null;
  // Side by side: the rates, the gym and the method the claim will charge (one round).
  const [rates, gym, current] = await Promise.all([
    context.settingsOf(sub.organisation_id),
    context.gymOf(sub.organisation_id, sub.gym_id),
    awaiting ? null : (known ?? currentMethod(sub)),
  ]);
  const credit = sub.credit_balance ?? 0;
  const labelOf = (p: PaymentRecord) => {
    if (isBreakFee(p)) return p.price_label ?? null;
    const start = civil(p.period_start_at);
    return start ? priceOnDay(sub, start).price_label : (p.price_label ?? sub.price_label);
  };
  if (awaiting)
    return quoteOf({
      kind: "awaiting_transfer",
      amount: awaiting.amount,
      credit_balance: credit,
      balance_owing: owing,
      method: { type: "bank_transfer" },
      rates,
      gym,
      due_on: awaiting.due_on,
      period_start: civil(awaiting.period_start_at),
      period_end: civil(awaiting.period_end_at),
      label: labelOf(awaiting),
    });
  const method = current as QuoteMethod;
  if (owing > 0)
    return quoteOf({
      kind: "balance_owing",
      amount: owing,
      credit_balance: credit,
      balance_owing: owing,
      method,
      rates,
      gym,
      due_on: civil(sub.next_retry_on),
      label: sub.price_label,
    });
  const next = upcoming as PaymentRecord;
  return quoteOf({
    kind: isBreakFee(next) ? "break_fee" : "next_payment",
    credit_balance: credit,
    balance_owing: owing,
    method,
    rates,
    gym,
    ...(chargeAfterZero(sub, next) ?? {
      amount: next.amount,
      due_on: next.due_on,
      period_start: civil(next.period_start_at),
      period_end: civil(next.period_end_at),
      label: labelOf(next),
    }),
  });
}

/**
 * A $0.00 charge (a free trial's) is "paid" by the billing run with nothing taken (docs/offers.md
 * "The charges of a membership with a trial"): until it is, the next money event is the charge the
 * schedule plans after it, so a new trial member reads the first paid charge, not "$0.00 today".
 * Null for any other payment: it is quoted as it stands.
 */
function chargeAfterZero(sub: SubscriptionRecord, next: PaymentRecord) {
  if (next.amount !== 0 || isBreakFee(next) || next.charge_index === undefined) return null;
  const periodEnd = civil(next.period_end_at);
  const after = periodEnd ? chargeAfterOf(sub, { index: next.charge_index, period_end: periodEnd }) : null;
  return after
    ? {
        amount: after.amount,
        due_on: after.due_on,
        period_start: after.period_start,
        period_end: after.period_end,
        label: priceOnDay(sub, after.period_start).price_label,
      }
    : null;
}
