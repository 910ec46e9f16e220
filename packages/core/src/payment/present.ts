/** Pure presenters of payments (spec 001 §3 Payment): money formatted at the edge, ids as the API names them. */

import { formatCents } from "../billing/money";
import type { MoneyQuote } from "../contract/quote";
import { titleCase } from "../text";
import type { PaymentRecord } from "./store";

/** Spec §4: sent (successful), upcoming, pending_request, awaiting_payment; anything else failed. */
export function paymentOutcome(
  status: PaymentRecord["status"],
): "successful" | "upcoming" | "pending" | "awaiting" | "failed" {
  switch (status) {
    case "sent":
      return "successful";
    case "upcoming":
      return "upcoming";
    case "pending_request":
      return "pending";
    case "awaiting_payment":
      return "awaiting";
    default:
      return "failed";
  }
}

export function presentPayment(p: PaymentRecord) {
  return {
    id: p.payment_id,
    amount: p.amount,
    formatted_amount: formatCents(p.amount),
    surcharge: p.surcharge,
    formatted_surcharge: formatCents(p.surcharge),
    total: p.amount + p.surcharge,
    formatted_total: formatCents(p.amount + p.surcharge),
    period_start_at: p.period_start_at ?? null,
    period_end_at: p.period_end_at ?? null,
    due_on: p.due_on,
    status: p.status,
    outcome: paymentOutcome(p.status),
    // Known only beside the subscription's other payments (`presentAsQuoted`).
    cleared_after_failure: false,
    type: p.type,
    user: { id: p.user_id, name: titleCase(p.member_name), email: p.member_email },
    gym: { id: p.gym_id, name: p.gym_name },
    price_label: p.price_label ?? null,
    destination_account: p.destination_account ?? null,
    subscription: p.subscription_id ?? null,
    is_retry: p.is_retry,
    is_pro_rata: p.is_pro_rata,
    joining_fee: p.joining_fee,
    discount: p.discount ?? 0,
    poll_count: p.poll_count,
    akahu_sid: p.akahu_sid ?? null,
    akahu_id: p.akahu_id ?? null,
    stripe_id: p.stripe_id ?? null,
    credit_used: p.credit_used,
    error_status: p.error_status ?? null,
    error_description: p.error_description ?? null,
    is_term_membership: p.is_term_membership,
    cooling_period_ends_at: p.cooling_period_ends_at ?? null,
    term_ends_at: p.term_ends_at ?? null,
    balance_owing: p.balance_owing,
    periods_owing: p.periods_owing,
    created_at: p.created_at,
    force_amount: p.force_amount ?? null,
    processed_by: p.processed_by ?? null,
    meta: (p.meta as Record<string, unknown> | undefined) ?? null,
    tasks: p.tasks ?? [],
    pif_payment: p.pif_payment ?? null,
    waiting_for: p.waiting_for ?? null,
  };
}

export type PaymentView = ReturnType<typeof presentPayment>;

/** Whether the quote of the next money event (payment/quote.ts) is of this upcoming payment. */
function isQuoted(p: PaymentRecord, quote: MoneyQuote | null | undefined): quote is MoneyQuote {
  return (
    p.status === "upcoming" &&
    Boolean(quote) &&
    (quote?.kind === "next_payment" || quote?.kind === "break_fee") &&
    quote.due_on === p.due_on &&
    quote.amount === p.amount
  );
}

/**
 * Payments as the member and staff read them beside the quote of the next money event: the
 * upcoming payment the quote is of shows the quote's credit applied, surcharge and total (issue 34
 * tour: a row of $24.90 beside "Next payment $12.60"). The surcharge stored when it was planned is
 * stale after a credit, a new card or new rates; the claim charges the quote's figures. `cleared`:
 * the failed charges since paid off (payment/debt.ts `clearedFailureIds`), shown as cleared.
 */
export function presentAsQuoted(
  quote: MoneyQuote | null | undefined,
  cleared: ReadonlySet<string> = new Set(),
) {
  return (p: PaymentRecord): PaymentView => {
    const view = { ...presentPayment(p), cleared_after_failure: cleared.has(p.payment_id) };
    if (!isQuoted(p, quote)) return view;
    return {
      ...view,
      credit_used: quote.credit_applied,
      surcharge: quote.surcharge,
      formatted_surcharge: quote.formatted_surcharge,
      total: quote.total,
      formatted_total: quote.formatted_total,
    };
  };
}
