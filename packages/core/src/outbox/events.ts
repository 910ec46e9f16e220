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
}

export type OutboxType = keyof OutboxEvents;

/** Every type, for the check that each has its subscriber once a process has started (core.ts). */
export const outboxTypes = [
  "cancelled_for_non_payment",
  "paid_at_desk",
] as const satisfies readonly OutboxType[];
