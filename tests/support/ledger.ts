/**
 * The ledger's invariants after every money test (docs/billing.md "The ledger's invariants"):
 * every subscription in the test file's table is checked by core's read-only checker
 * (payment/ledger-check.ts) after each test; a break fails the test that left it (a break already
 * reported by an earlier test of the file is not reported again).
 */
import { afterEach, expect } from "vitest";
import { checkAllLedgers, type LedgerBreak } from "../../packages/core/src/payment/ledger-check";

export const describeBreak = (b: LedgerBreak) => `subscription ${b.subscription_id}: ${b.rule}: ${b.detail}`;

/** The breaks in the table now, beside how many subscriptions were checked. */
export async function ledgerNow() {
  return checkAllLedgers();
}

const forged = new Set<string>();

/**
 * A test that corrupts a subscription's records on purpose (to show a check finds it: the
 * reconciliation job's provider mismatches) says so; the after-each check leaves that one out.
 */
export function ledgerForgedOnPurpose(subscriptionId: string) {
  forged.add(subscriptionId);
}

/** Registers the check after each test of the calling file. */
export function checkLedgerAfterEach() {
  const reported = new Set<string>();
  afterEach(async () => {
    const { breaks } = await checkAllLedgers();
    const fresh = breaks.filter(
      (b) => !forged.has(b.subscription_id) && !reported.has(`${b.subscription_id} ${b.rule}`),
    );
    for (const b of fresh) reported.add(`${b.subscription_id} ${b.rule}`);
    expect(fresh.map(describeBreak), "the ledger's invariants after this test").toEqual([]);
  });
}
