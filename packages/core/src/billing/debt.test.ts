/**
 * `clearedFailures` (docs/payments.md "A failed charge since paid"): the failed charges the debt
 * rule's own walk has since paid in full, oldest first, by a successful retry or a desk payment.
 */
import { describe, expect, it } from "vitest";
import { clearedFailures, debt } from "./debt";

const failed = (amount: number, at: string) => ({
  status: "failed",
  amount,
  is_retry: false,
  created_at: at,
});
const retry = (amount: number, at: string, status = "sent") => ({
  status,
  amount,
  is_retry: true,
  created_at: at,
});
const desk = (amount: number, at: string) => ({
  status: "sent",
  amount,
  is_retry: false,
  settles_debt: true,
  created_at: at,
});

describe("failed charges since paid", () => {
  it("a retry that pays the balance clears every failure it paid; a failed retry clears none", () => {
    const ledger = [failed(2400, "1"), failed(2400, "2"), retry(4800, "3", "failed"), retry(4800, "4")];
    expect(clearedFailures(ledger)).toEqual([true, true, false, false]);
    expect(debt(ledger).balance_owing).toBe(0);
  });

  it("a desk payment pays the oldest first: a failure paid in part is not cleared", () => {
    const ledger = [failed(2400, "1"), failed(2400, "2"), desk(3000, "3")];
    expect(clearedFailures(ledger)).toEqual([true, false, false]);
    expect(debt(ledger)).toEqual({ balance_owing: 1800, periods_owing: 1 });
  });

  it("a failure after the payment is not cleared by it", () => {
    expect(clearedFailures([desk(2400, "1"), failed(2400, "2")])).toEqual([false, false]);
  });
});
