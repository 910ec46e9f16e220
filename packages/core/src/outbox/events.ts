/**
 * The outbox's catalogue (docs/data-model.md "The outbox"): each cross-layer event that travels
 * through it, and the facts it carries. A lower layer writes the event in its own transaction
 * (outbox.ts `outboxItem`); the higher layer's handler is wired in core.ts. Only facts that stay
 * true travel (ids): a handler reads what it needs when it runs, since it may run later, or twice.
 */
export interface OutboxEvents {
  /**
   * A subscription cancelled for non-payment (payment/dunning/cancel-for-non-payment.ts, in the
   * cancellation's transaction): the member's door access is revoked (member/hooks.ts).
   */
  cancelled_for_non_payment: { organisation_id: string; user_id: string; subscription_id: string };
  /**
   * A payment paid at the desk: a manual payment, a pay-in-full by EFTPOS or cash (the subscription
   * layer, in the payment's transaction): its receipt is issued and emailed (receipt/service.ts).
   */
  paid_at_desk: { organisation_id: string; payment_id: string };
  /**
   * A subscription created (subscription/service.ts `createSubscription`, in its transaction): the
   * member record's latest subscription, door access, the activity entry (member/hooks.ts). Beside
   * the ids, what was joined as it was shown then (the activity's words), and who did it.
   */
  subscribed: {
    organisation_id: string;
    user_id: string;
    subscription_id: string;
    start_date: string;
    price_label?: string | null;
    offering_name?: string | null;
    gym_name?: string | null;
    actor_id?: string;
    at: string;
  };
  /**
   * A lifecycle operation changed a subscription (pause, cancel, price change, start now, manual
   * payment, visits added: subscription/lifecycle.ts `commitFacts`, in its transaction): door access
   * and the activity entry (member/hooks.ts).
   */
  lifecycle_changed: {
    organisation_id: string;
    user_id: string;
    subscription_id: string;
    action: string;
    detail: string;
    by: string;
    at: string;
  };
  /**
   * A payment failed (payment/settle-failed.ts) or a transfer was marked received by staff
   * (payment/received.ts), in the transaction that moved it: door access (received) and the
   * activity entry; a received payment's receipt (member/hooks.ts). A payment paid by a provider's
   * answer writes its receipt and activity in its own transaction (payment/outcome.ts), with
   * `payment_paid` below.
   */
  payment_outcome: {
    organisation_id: string;
    user_id: string;
    payment_id: string;
    subscription_id?: string | null;
    amount: number;
    surcharge?: number | null;
    is_retry?: boolean | null;
    due_on: string;
    outcome: "failed" | "received";
    actor_id?: string;
    reason?: string | null;
    at: string;
  };
  /**
   * A payment paid by a provider's answer (payment/settle-paid.ts, in the settlement's transaction,
   * which also wrote its receipt): the receipt emailed at most once (receipt/service.ts
   * `emailReceiptOnce`, a claim on the receipt), and door access synced when the settlement changed
   * the member's standing (member/hooks.ts).
   */
  payment_paid: {
    organisation_id: string;
    user_id: string;
    payment_id: string;
    standing_changed: boolean;
  };
  /**
   * A user's role in an organisation written (user/roles.ts `putRole`, in its transaction): the
   * member search re-indexed (member/hooks.ts).
   */
  role_written: {
    organisation_id: string;
    user_id: string;
    member_gym_ids: string[];
  };
  /**
   * A member's default payment type changed (payment-type/service.ts, in the transaction that makes
   * it the default): their live subscriptions take it and an owed balance is retried (payment/consent.ts).
   */
  default_payment_type_changed: { organisation_id: string; user_id: string; payment_type_id: string };
  /**
   * A gym's destination account number changed (payment/destination-account.ts, in the gym's
   * write): its bank payers are asked to consent again, once per event (payment/consent.ts).
   */
  destination_account_changed: { organisation_id: string; gym_id: string };
  /**
   * A member confirmed what they chose at registration (`POST /api/subscriptions`: subscription/
   * service.ts, in the subscription's transaction): the registration marked done and the welcome
   * emailed, once (registration/service.ts; the mark is conditional).
   */
  registration_confirmed: {
    organisation_id: string;
    user_id: string;
    subscription_id: string;
    payment_id: string;
  };
}

export type OutboxType = keyof OutboxEvents;

/** Every type, for the check that each has its subscriber once a process has started (core.ts). */
export const outboxTypes = [
  "cancelled_for_non_payment",
  "paid_at_desk",
  "subscribed",
  "lifecycle_changed",
  "payment_outcome",
  "payment_paid",
  "role_written",
  "default_payment_type_changed",
  "destination_account_changed",
  "registration_confirmed",
] as const satisfies readonly OutboxType[];
