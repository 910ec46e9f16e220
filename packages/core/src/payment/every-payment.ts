/**
 * Every payment of an organisation, whole records: for the reads that need the organisation's
 * whole history, the rollup recount (rollup/backfill.ts) and the ledger check (ledger-check.ts),
 * seed and repair tools, never a request path. Payments carry no index keyed on the organisation
 * alone (that index was a write hot spot, docs/data-model.md "Indexes added for scale"): the
 * organisation's months (payment_month, months.ts), each month's keys from the list index (gsi5,
 * a few months side by side), then the whole items by key (BatchGet, 100 a request, side by side).
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { dynamo } from "../db/client";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { paymentMonths } from "./months";
import { monthPartition, type PaymentRecord } from "./store";

/** Month partitions read side by side. */
const MONTHS_AT_ONCE = 8;

/** The `payment_id`s due in one month of an organisation (every page of its gsi5 partition). */
async function monthPaymentIds(organisationId: string, month: string): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const answer = await dynamo().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: "gsi5",
        KeyConditionExpression: "#k = :k",
        ExpressionAttributeNames: { "#k": "gsi5pk", "#id": "payment_id" },
        ExpressionAttributeValues: { ":k": monthPartition(organisationId, month) },
        ProjectionExpression: "#id",
        ExclusiveStartKey: start,
      }),
    );
    for (const item of answer.Items ?? []) ids.push(String(item.payment_id));
    start = answer.LastEvaluatedKey;
  } while (start);
  return ids;
}

/** Every payment of the organisation (whole records), oldest month first. */
export async function everyPayment(organisationId: string): Promise<PaymentRecord[]> {
  const months = await paymentMonths(organisationId, {}, "all", "asc");
  const ids: string[] = [];
  for (let i = 0; i < months.length; i += MONTHS_AT_ONCE) {
    const batch = await Promise.all(
      months.slice(i, i + MONTHS_AT_ONCE).map((m) => monthPaymentIds(organisationId, m)),
    );
    ids.push(...batch.flat());
  }
  const unique = [...new Set(ids)];
  const found = await getMany(
    unique.map((payment_id) => ({
      entity: db().entities.payment,
      key: { organisation_id: organisationId, payment_id },
    })),
  );
  return found.filter((p): p is PaymentRecord => p !== null);
}
