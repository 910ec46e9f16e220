/**
 * "A payment was paid at the desk": a manual payment, or a pay-in-full taken by EFTPOS or cash,
 * recorded by the subscription layer without a provider. The ledger's event: the receipts
 * (receipt/service.ts) subscribe through `onPaidAtDesk`, wired in core.ts, so the subscription
 * layer that records these payments imports nothing above it. A provider's settlement and a
 * transfer marked received issue their receipts through the members layer (member/hooks.ts).
 */
type Listener = (organisationId: string, paymentId: string) => Promise<void>;
const listeners: Listener[] = [];

/** Subscribes to a payment paid at the desk (core.ts wires the subscribers). */
export function onPaidAtDesk(listener: Listener) {
  listeners.push(listener);
}

/** Tells the subscribers, after the payment was written as paid. A subscriber never throws into it. */
export async function paidAtDesk(organisationId: string, paymentId: string): Promise<void> {
  for (const listener of listeners) await listener(organisationId, paymentId);
}
