/**
 * Recounts an organisation's rollups from its payments, memberships and visits (the local seed, whose
 * past payments are written as the billing run would have left them, and any repair). It reads
 * everything, so it is never on a request path; rollup.db.test.ts checks it agrees exactly with
 * the counters the live transitions keep.
 */

import { BatchWriteCommand, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { VisitRecord } from "../access/visits";
import { aucklandDate } from "../billing/calendar";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { everyPayment } from "../payment/every-payment";
import type { PaymentRecord } from "../payment/store";
import type { SubscriptionRecord } from "../subscription/store";
import { COST_DIM, costBucketOf, isChurnRisk } from "./cost";
import { ORGANISATION_ROLLUP, type RollupCounter, SCHEDULED_ROLLUP } from "./entity";
import { paymentRollup, scheduledChanges } from "./money";
import {
  cancellationChange,
  churnItem,
  joinDelta,
  memberMonthsOf,
  offeringMoveChanges,
  pauseChanges,
  type RollupChange,
  rollupChange,
  rollupRows,
  trialStopChanges,
  visitChange,
} from "./writes";

const dayOf = (at: string | undefined, fallback: string) => (at ? aucklandDate(new Date(at)) : fallback);

/** The changes the live transitions would have counted for these records. */
export function recount(
  payments: PaymentRecord[],
  subs: SubscriptionRecord[],
  today: string,
  visits: VisitRecord[] = [],
): RollupChange[] {
  const byId = new Map(subs.map((s) => [s.subscription_id, s]));
  const changes: RollupChange[] = [];
  for (const s of subs) {
    changes.push(
      rollupChange(s, s.start_date, joinDelta(s)),
      ...offeringMoveChanges(s, 1),
      ...pauseChanges(s, 1),
    );
    if (s.cancelled_at)
      changes.push(
        cancellationChange(s, dayOf(s.cancellation_effective_at, today), 1),
        ...trialStopChanges(s, dayOf(s.cancelled_at, today), 1),
      );
    if ((s.balance_owing ?? 0) > 0)
      changes.push(rollupChange(s, dayOf(s.failed_at, today), { owing: s.balance_owing, owing_count: 1 }));
  }
  for (const p of payments) {
    const sub = p.subscription_id ? byId.get(p.subscription_id) : undefined;
    const manual = (p.meta as { kind?: string } | undefined)?.kind === "manual";
    const settled = dayOf(p.settled_at, p.due_on);
    if (p.status === "sent")
      changes.push(paymentRollup(p, sub, settled, { collected: p.amount, collected_count: 1 }));
    if (p.status === "failed" || p.status === "declined")
      changes.push(paymentRollup(p, sub, settled, { failed: p.amount, failed_count: 1 }));
    // Still to be charged: the expected-payments page's days ahead (zero unless upcoming).
    changes.push(...scheduledChanges(null, p));
    const claimed = ["pending_request", "sent", "failed", "declined"].includes(p.status);
    if (claimed && !p.is_retry && !manual)
      changes.push(
        paymentRollup(p, sub, p.due_on, { expected: p.amount + (p.credit_used ?? 0), expected_count: 1 }),
      );
  }
  for (const v of visits)
    if (v.successful)
      changes.push(
        visitChange({
          organisation_id: v.organisation_id,
          gym_id: v.gym_id,
          offering_id: v.offering_id ?? null,
          user_id: v.user_id,
          member_name: v.member_name,
          day: aucklandDate(new Date(v.visited_at)),
          pass: v.pass_visit_used === true,
        }),
      );
  return changes;
}

export type RollupRow = { organisation_id: string; scope: string; day: string; dim: string } & Partial<
  Record<RollupCounter, number>
>;

/** The rows of a set of changes, summed, with each month's cost-per-visit histogram. */
export function rowsOf(changes: RollupChange[]): Map<string, RollupRow> {
  const rows = new Map<string, RollupRow>();
  const add = (key: Omit<RollupRow, RollupCounter>, delta: Partial<Record<RollupCounter, number>>) => {
    const id = `${key.scope}|${key.day}|${key.dim}`;
    const row = rows.get(id) ?? { ...key };
    for (const [k, v] of Object.entries(delta))
      row[k as RollupCounter] = (row[k as RollupCounter] ?? 0) + (v ?? 0);
    rows.set(id, row);
  };
  for (const change of changes) for (const { key, delta } of rollupRows(change)) add(key, delta);
  for (const m of memberMonthsOf(changes).values()) {
    const bucket = costBucketOf(m.paid, m.visits);
    if (!bucket) continue;
    for (const scope of [m.gym_id, ORGANISATION_ROLLUP])
      add({ organisation_id: m.organisation_id, scope, day: m.month, dim: COST_DIM }, { [bucket]: 1 });
  }
  return rows;
}

/** The churn-risk items of a set of changes (each in its gym's and the organisation's partition). */
export function churnItemsOf(changes: RollupChange[]) {
  return [...memberMonthsOf(changes).values()]
    .filter((m) => isChurnRisk(m.paid, m.visits))
    .flatMap((m) =>
      [m.gym_id, ORGANISATION_ROLLUP].map((scope) => churnItem(m, scope, m.paid, m.member_name)),
    );
}

/**
 * Recounts and writes an organisation's rollup rows, its members' paid and visits per month, the
 * cost-per-visit histograms and the churn-risk items, from its payments (every one, whole: the
 * caller reads them, payment/every-payment.ts `everyPayment`), memberships and visits.
 */
export async function backfillRollups(organisationId: string, today: string, payments: PaymentRecord[]) {
  const [subs, visits] = await Promise.all([
    db().entities.subscription.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
    db().entities.visit.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
  ]);
  return writeRecount(
    recount(payments, subs.data as SubscriptionRecord[], today, visits.data as VisitRecord[]),
    organisationId,
  );
}

/**
 * Recounts the scheduled-payment rows alone (scope `_scheduled`, the expected-payments page's days
 * ahead) of every organisation, from every payment: the one-off after the deploy that adds them
 * (`npm run job -- recount-scheduled`; docs/data-model.md "Rollups"). A payment written between an
 * organisation's read and its rows' rewrite is miscounted: run it when no billing run is under way,
 * then again (a second run of a quiet organisation changes nothing); the organisation's ledger check
 * (payment/ledger-check.ts, rule `scheduled`) says whether the rows agree.
 */
export async function recountScheduledRollups(
  onProgress?: (done: number) => void,
): Promise<{ organisations: number; rows: number }> {
  const { data } = await db().entities.organisation.scan.go({ pages: "all" });
  let rows = 0;
  for (const [i, { organisation_id }] of data.entries()) {
    const payments = await everyPayment(organisation_id);
    rows += (
      await writeRecount(
        payments.flatMap((p) => scheduledChanges(null, p)),
        organisation_id,
      )
    ).rows;
    onProgress?.(i + 1);
  }
  return { organisations: data.length, rows };
}

/**
 * Writes the rows of recounted changes, 25 to a batch, a few batches at once: each scope's counter
 * rows (every shard) are deleted first and the recount written as shard 0, so no shard keeps a
 * count the recount already holds (seed and repair only: changes landing meanwhile are lost).
 * `organisationId`: the organisation recounted whole, whose scheduled-payment rows are all
 * rewritten (deleted even when nothing is upcoming now: a drifted row must not survive a recount).
 */
export async function writeRecount(changes: RollupChange[], organisationId?: string) {
  const rows = [...rowsOf(changes).values()];
  const scopes = new Map<string, { organisation_id: string; scope: string }>(
    rows.map((r) => [`${r.organisation_id}|${r.scope}`, r]),
  );
  if (organisationId)
    scopes.set(`${organisationId}|${SCHEDULED_ROLLUP}`, {
      organisation_id: organisationId,
      scope: SCHEDULED_ROLLUP,
    });
  for (const { organisation_id, scope } of scopes.values()) await deleteCounterRows(organisation_id, scope);
  await inBatches(
    rows.map((r) => ({ ...r, shard: 0 })),
    (batch) => db().entities.rollup.put(batch).go(),
  );
  const months = [...memberMonthsOf(changes).values()];
  await inBatches(months, (batch) => db().entities.memberMonth.put(batch).go());
  const churn = churnItemsOf(changes);
  await inBatches(churn, (batch) => db().entities.churnRisk.put(batch).go());
  return { rows: rows.length, members: months.length, churn: churn.length };
}

/** Every counter row of a scope, each shard and those written before the shards (raw keys: they may lack `shard`). */
async function deleteCounterRows(organisationId: string, scope: string) {
  const query = db()
    .entities.rollup.query.primary({ organisation_id: organisationId, scope })
    .params() as QueryCommandInput;
  const keys: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        ...query,
        ProjectionExpression: "#pk, #sk",
        ExpressionAttributeNames: { ...query.ExpressionAttributeNames, "#pk": "pk", "#sk": "sk" },
        ExclusiveStartKey: start,
      }),
    );
    keys.push(...(page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk })));
    start = page.LastEvaluatedKey;
  } while (start);
  await inBatches(keys, async (batch) => {
    let requests: Record<string, unknown[]> | undefined = {
      [config.tableName]: batch.map((Key) => ({ DeleteRequest: { Key } })),
    };
    while (requests && Object.keys(requests).length) {
      const answer = await dynamo().send(new BatchWriteCommand({ RequestItems: requests as never }));
      requests = answer.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  });
}

async function inBatches<T>(items: T[], write: (batch: T[]) => Promise<unknown>) {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const next = async (): Promise<void> => {
    const batch = batches.shift();
    if (!batch) return;
    await write(batch);
    return next();
  };
  await Promise.all([1, 2, 3, 4].map(next));
}
