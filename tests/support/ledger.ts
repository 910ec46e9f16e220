/**
 * The ledger's invariants after every money test (docs/billing.md "The ledger's invariants"):
 * every subscription in the test file's table is checked by core's read-only checker
 * (payment/ledger-check.ts) after each test; a break fails the test that left it (a break already
 * reported by an earlier test of the file is not reported again).
 */
import { paginateScan } from "@aws-sdk/lib-dynamodb";
import { afterEach, expect } from "vitest";
import { config } from "../../packages/core/src/config";
import { dynamo } from "../../packages/core/src/db/client";
import { db } from "../../packages/core/src/db/service";
import {
  type Check,
  type LedgerBreak,
  ledgerBreaksOf,
  settled,
} from "../../packages/core/src/payment/ledger-check";
import type { PaymentRecord } from "../../packages/core/src/payment/store";
import type { SubscriptionRecord } from "../../packages/core/src/subscription/store";

/**
 * Every subscription of the test file's table against every payment: one Scan for both (tests
 * only; DynamoDB Local reads every item of the table for a Scan, so two entity scans read it twice),
 * each item parsed by its entity.
 */
function checkAllLedgers(): Promise<Check> {
  return settled(async () => {
    const subs: Record<string, unknown>[] = [];
    const payments: Record<string, unknown>[] = [];
    for await (const page of paginateScan(
      { client: dynamo() },
      {
        TableName: config.tableName,
        FilterExpression: "#e IN (:s, :p)",
        ExpressionAttributeNames: { "#e": "__edb_e__" },
        ExpressionAttributeValues: { ":s": "subscription", ":p": "payment" },
      },
    ))
      for (const item of page.Items ?? []) (item.__edb_e__ === "payment" ? payments : subs).push(item);
    return {
      checked: subs.length,
      breaks: ledgerBreaksOf(
        db().entities.subscription.parse({ Items: subs }).data as SubscriptionRecord[],
        db().entities.payment.parse({ Items: payments }).data as PaymentRecord[],
      ),
    };
  });
}

export const describeBreak = (b: LedgerBreak) => `subscription ${b.subscription_id}: ${b.rule}: ${b.detail}`;

const forged = new Set<string>();
const reported = new Set<string>();
const keyOf = (b: LedgerBreak) => `${b.subscription_id} ${b.rule}`;

/**
 * A test that corrupts a subscription's records on purpose (to show a check finds it: the
 * reconciliation job's provider mismatches) says so; the checks leave that one out.
 */
export function ledgerForgedOnPurpose(subscriptionId: string) {
  forged.add(subscriptionId);
}

/**
 * The breaks in the table now that were not reported before in this test file (a break fails the
 * test or round that left it, not every one after it).
 */
export async function newLedgerBreaks(): Promise<LedgerBreak[]> {
  const { breaks } = await checkAllLedgers();
  const fresh = breaks.filter((b) => !forged.has(b.subscription_id) && !reported.has(keyOf(b)));
  for (const b of fresh) reported.add(keyOf(b));
  return fresh;
}

/** Registers the check after each test of the calling file. */
export function checkLedgerAfterEach() {
  afterEach(async () => {
    expect((await newLedgerBreaks()).map(describeBreak), "the ledger's invariants after this test").toEqual(
      [],
    );
  });
}
