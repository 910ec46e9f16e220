/** Reads of payments and the sparse work index (gsi3). No authorisation here: services decide. */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { EntityItem } from "electrodb";
import type { CivilDate } from "../billing/calendar";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { shardPages } from "../db/shard-pages";
import { shardOf } from "../db/shards";
import type { paymentEntity } from "./entity";

export type PaymentRecord = EntityItem<typeof paymentEntity>;

/** The work index keys of a payment in each of its working states. */
export const workKeys = {
  /** Upcoming and not yet claimed: the billing run of `dueOn` or later finds it. */
  due: (paymentId: string, dueOn: CivilDate) => ({
    work_key: `due#${shardOf(paymentId)}`,
    work_sort: `${dueOn}#${paymentId}`,
  }),
  /** Claimed (pending_request): polling and recovery find it by claim time. */
  inflight: (paymentId: string, claimedAt: string) => ({
    work_key: `inflight#${shardOf(paymentId)}`,
    work_sort: `${claimedAt}#${paymentId}`,
  }),
  /**
   * Settled (sent, failed, declined) with a provider id: the daily reconciliation finds it by
   * settlement time, checks it with the provider once, and removes the key (reconcile.ts).
   */
  reconcile: (paymentId: string, settledAt: string) => ({
    work_key: `reconcile#${shardOf(paymentId)}`,
    work_sort: `${settledAt}#${paymentId}`,
  }),
  /** Due, but waiting for the member's new bank consent. */
  hold: (organisationId: string, userId: string, paymentId: string, dueOn: CivilDate) => ({
    work_key: `hold#${organisationId}#${userId}`,
    work_sort: `${dueOn}#${paymentId}`,
  }),
};

/** Statuses a payment is open in: it is in the attention index (gsi4) while it has one of them. */
export const OPEN_STATUSES: readonly string[] = ["upcoming", "pending_request", "awaiting_payment"];

/** The attention index keys of an open payment (entity.ts): its organisation's shard, by due date. */
export function attentionKeys(payment: { organisation_id: string; payment_id: string; due_on: string }) {
  return {
    attention_key: `attention#${payment.organisation_id}#${shardOf(payment.payment_id)}`,
    attention_sort: `${payment.due_on}#${payment.payment_id}`,
  };
}

/**
 * The list index keys of every payment (entity.ts, gsi5): its organisation and due month, by due
 * date. Set with the record (`newPayment`) and with any write that changes `due_on`.
 */
export function monthKeys(payment: { organisation_id: string; payment_id: string; due_on: string }) {
  return {
    month_key: monthPartition(payment.organisation_id, payment.due_on.slice(0, 7)),
    month_sort: `${payment.due_on}#${payment.payment_id}`,
  };
}

/** The list index partition of an organisation's payments due in one month (`YYYY-MM`). */
export function monthPartition(organisationId: string, month: string): string {
  return `${organisationId}#${month}`;
}

/** What a write that makes a payment final removes (with the work keys it removes). */
export const ATTENTION_FIELDS = ["attention_key", "attention_sort"] as const;

export async function findPayment(
  organisationId: string,
  paymentId: string,
  options: { consistent?: boolean } = {},
): Promise<PaymentRecord | null> {
  const { data } = await db()
    .entities.payment.get({ organisation_id: organisationId, payment_id: paymentId })
    .go({ consistent: options.consistent });
  return data ?? null;
}

/** Counts of what the work index queries read (the bench reports them). */
export const workIndexStats = { queries: 0, items: 0 };

/**
 * One page of a work-index partition, sorted by `work_sort`, up to `sortAtMost` (inclusive).
 * Raw Query on gsi3 (the keys are raw attributes), items parsed by the payment entity.
 */
export async function queryWorkPage(input: {
  key: string;
  sortAtMost?: string;
  limit?: number;
  cursor?: Record<string, unknown>;
}): Promise<{ items: PaymentRecord[]; cursor?: Record<string, unknown> }> {
  const names: Record<string, string> = { "#k": "gsi3pk" };
  const values: Record<string, unknown> = { ":k": input.key };
  let condition = "#k = :k";
  if (input.sortAtMost !== undefined) {
    names["#s"] = "gsi3sk";
    values[":s"] = input.sortAtMost;
    condition += " AND #s <= :s";
  }
  const answer = await dynamo().send(
    new QueryCommand({
      TableName: config.tableName,
      IndexName: "gsi3",
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      Limit: input.limit ?? 100,
      ExclusiveStartKey: input.cursor,
    }),
  );
  workIndexStats.queries += 1;
  workIndexStats.items += answer.Items?.length ?? 0;
  const parsed = db().entities.payment.parse({ Items: answer.Items ?? [] });
  return { items: parsed.data as PaymentRecord[], cursor: answer.LastEvaluatedKey };
}

/** Every page of every shard of a work-index family (`due`, `inflight`, `reconcile`), oldest first per shard. */
export async function* workPages(
  family: "due" | "inflight" | "reconcile",
  sortAtMost: string,
  limit = 100,
): AsyncGenerator<PaymentRecord[]> {
  for await (const items of shardPages({ index: "gsi3", family, sortAtMost, limit })) {
    workIndexStats.queries += 1;
    workIndexStats.items += items.length;
    yield db().entities.payment.parse({ Items: items }).data as PaymentRecord[];
  }
}

/** A member's payments waiting for a new bank consent. */
export async function heldPayments(organisationId: string, userId: string): Promise<PaymentRecord[]> {
  const out: PaymentRecord[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryWorkPage({ key: `hold#${organisationId}#${userId}`, cursor });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return out;
}

/** A member's payments in an organisation, newest first, cursor paging. */
export async function listMemberPayments(
  organisationId: string,
  userId: string,
  options: { cursor?: string | null; limit?: number } = {},
) {
  const { data, cursor } = await db()
    .entities.payment.query.byMember({ organisation_id: organisationId, user_id: userId })
    .go({ order: "desc", limit: options.limit ?? 25, cursor: options.cursor ?? null });
  return { items: data as PaymentRecord[], cursor: cursor ?? null };
}

/** Every payment of one subscription (the member's payments, filtered): dunning's debt is computed over them. */
export async function subscriptionPayments(
  organisationId: string,
  userId: string,
  subscriptionId: string,
): Promise<PaymentRecord[]> {
  const { data } = await db()
    .entities.payment.query.byMember({ organisation_id: organisationId, user_id: userId })
    .where((a, op) => op.eq(a.subscription_id, subscriptionId))
    .go({ pages: "all" });
  return data as PaymentRecord[];
}
