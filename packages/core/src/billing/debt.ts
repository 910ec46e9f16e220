/**
 * Debt: what a member owes, derived from the ledger of their payments (docs/billing.md "Dunning →
 * Debt"). Pure: no I/O, no clock. This is the only place the rule is written; the engine maps its
 * payment records to these entries in one place (payment/debt.ts `ledgerDebt`) and every reader of
 * debt (retries, grace expiry, the manual payment, the subscription and member answers, the
 * dashboard's owing figures) goes through it.
 *
 * - A failed charge (a period, a break fee: anything that pays for something of its own) adds its
 *   amount as one period owing.
 * - A sent payment made to pay debt (a retry of the balance, a manual payment staff record) pays
 *   it off, oldest period first; anything beyond the debt is not debt (a manual payment keeps it as
 *   credit ahead, `credit_balance`).
 * - A sent charge pays its own period, not older debt; a failed retry adds nothing (it tried to
 *   collect the same debt).
 * - A charge awaiting payment (a pay-in-full bank transfer not yet marked received) is owed: it
 *   adds its amount as one period owing until it is received (then it is a sent charge).
 */
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
 * The debt left by a member's payments, in order of created_at: a failed regular payment (or one
 * awaiting payment: a transfer not yet received) adds its amount as one period owing; a `sent` retry or debt-settling payment pays off its amount, oldest
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
    } else if (
      !p.is_retry &&
      (isFailedPaymentStatus(p.status) || (p.status === "awaiting_payment" && !p.settles_debt)) &&
      p.amount > 0
    ) {
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

/**
 * Which of the payments are failed charges that debt-paying payments after them (a successful
 * retry, a desk payment) have since paid in full: the same walk as `debt`, in the same order. Such
 * a charge is shown as cleared, not as "Failed" (issue 34 tour item 8). One flag per input payment.
 */
export function clearedFailures(payments: readonly DunningPayment[]): boolean[] {
  const order = payments
    .map((p, i) => ({ p, i }))
    .sort((a, b) => {
      const x = a.p.created_at;
      const y = b.p.created_at;
      if (x && y && x !== y) return x < y ? -1 : 1;
      return a.i - b.i;
    });
  const cleared = payments.map(() => false);
  const owing: { i: number; left: number }[] = [];
  for (const { p, i } of order) {
    if (p.status === "sent" && (p.is_retry || p.settles_debt)) {
      let left = p.amount;
      while (left > 0 && owing.length > 0) {
        const paid = Math.min(left, owing[0].left);
        owing[0].left -= paid;
        left -= paid;
        if (owing[0].left === 0) {
          const done = owing.shift() as { i: number };
          if (done.i >= 0) cleared[done.i] = true;
        }
      }
    } else if (!p.is_retry && isFailedPaymentStatus(p.status) && p.amount > 0) {
      owing.push({ i, left: p.amount });
    } else if (!p.is_retry && p.status === "awaiting_payment" && !p.settles_debt && p.amount > 0) {
      owing.push({ i: -1, left: p.amount });
    }
  }
  return cleared;
}
