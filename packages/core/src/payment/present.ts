/** Pure presenters of payments (spec 001 §3 Payment): money formatted at the edge, ids as the API names them. */

import { formatCents } from "../billing/money";
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
