/**
 * The debt of a subscription, derived from its ledger: the rule is billing/debt.ts; this file is
 * the one mapping of stored payment records to that rule. Everything that reads or writes debt goes
 * through `ledgerDebt` / `subscriptionDebt`: a failure (settle.ts), a successful retry, a manual
 * payment, the retry job (the amount charged), grace expiry, the subscription answer. The
 * subscription's `balance_owing` / `periods_owing` are a projection written only from here.
 */
import { clearedFailures, type Debt, type DunningPayment, debt } from "../billing/debt";
import type { SubscriptionRecord } from "../subscription/store";
import { type PaymentRecord, subscriptionPayments } from "./store";

/** A payment made to pay debt off: a retry of the balance or a manual payment (any legacy `clears_debt`). */
export function paysDebt(p: Pick<PaymentRecord, "is_retry" | "meta">): boolean {
  const meta = p.meta as { kind?: string; clears_debt?: boolean } | undefined;
  return Boolean(p.is_retry || meta?.kind === "manual" || meta?.clears_debt);
}

/** When the payment became a fact of the ledger (settled, else claimed, else made). */
function happenedAt(p: PaymentRecord): string | undefined {
  return p.settled_at ?? p.claimed_at ?? p.created_at;
}

/** The rule's view of a stored payment. */
export function ledgerEntry(p: PaymentRecord): DunningPayment {
  return {
    status: p.status,
    amount: p.amount,
    is_retry: p.is_retry,
    settles_debt: paysDebt(p),
    created_at: happenedAt(p),
  };
}

/**
 * A charge of the balance owing that is at the provider now (a retry claimed, not yet settled), if
 * any. While one is in flight nothing else may collect the same debt (docs/billing.md "Dunning →
 * Debt", "A manual payment while a retry is in flight"): the retry may still succeed, and money
 * taken twice for one debt would be over-collected.
 */
export function debtChargeInFlight(payments: readonly PaymentRecord[]): PaymentRecord | null {
  return payments.find((p) => p.is_retry && p.status === "pending_request") ?? null;
}

/**
 * A payment the ledger holds: every one except a `cancelled` one, which was never charged (the
 * membership ended before it fell due, grace expiry cancelled it with the membership, or its break
 * fee was undone). The spec counts an unknown status as failed; a cancelled charge counted so was
 * owed although nobody ever asked for it (found by the ledger's invariants, issue 34).
 */
export function inLedger(p: Pick<PaymentRecord, "status">): boolean {
  return p.status !== "cancelled";
}

/** The debt the payments leave (in the order they happened). */
export function ledgerDebt(payments: readonly PaymentRecord[]): Debt {
  return debt(payments.filter(inLedger).map(ledgerEntry));
}

/** The subscription's debt as its ledger says now (one Query of the member's payments). */
export async function subscriptionDebt(
  sub: Pick<SubscriptionRecord, "organisation_id" | "user_id" | "subscription_id">,
): Promise<Debt> {
  return ledgerDebt(await subscriptionPayments(sub.organisation_id, sub.user_id, sub.subscription_id));
}

/** The ids of failed charges since paid off by a retry or a desk payment, per subscription's ledger. */
export function clearedFailureIds(payments: readonly PaymentRecord[]): Set<string> {
  const bySub = new Map<string, PaymentRecord[]>();
  for (const p of payments.filter(inLedger)) {
    const key = p.subscription_id ?? "";
    bySub.set(key, [...(bySub.get(key) ?? []), p]);
  }
  const ids = new Set<string>();
  for (const ledger of bySub.values()) {
    const flags = clearedFailures(ledger.map(ledgerEntry));
    ledger.forEach((p, i) => {
      if (flags[i]) ids.add(p.payment_id);
    });
  }
  return ids;
}
