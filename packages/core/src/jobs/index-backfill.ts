/**
 * The data migration of the indexes added for scale (issue 39; docs/data-model.md "Indexes added
 * for scale"): items written before an index existed carry none of its attributes, so this job
 * writes them: a live staff role's sparse staff index keys (`staff_key`, `staff_sort`); an open
 * payment's attention index keys (`attention_key`, `attention_sort`), and their removal from a
 * payment made final by a write that left them (a claim paid by credit, one cancelled at its claim);
 * every payment's list index keys (`month_key`, `month_sort`: its organisation and due month) and
 * its month named among the organisation's payment months (payment/months.ts); and the removal of
 * a payment's gsi1 keys (`gsi1pk`, `gsi1sk`: payments left that index, keyed on the organisation
 * alone, a write hot spot);
 * a live subscription's schedule index keys (`schedule_key`, `schedule_sort`: the daily schedule
 * check sweeps every subscription in it, payment/schedule-check.ts).
 *
 * `npm run job -- backfill-index-keys`, once after the deploy that adds the index. A one-off
 * migration, so it reads the table by Scan (filtered to the entity), like the member-profile
 * backfill; every request path stays on keys and indexes. Idempotent: each write is conditional
 * on the item being as read (a role changed meanwhile was written with its keys by `putRole`),
 * and a second run finds nothing to do.
 */
import { ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { notePaymentMonths } from "../payment/months";
import { ATTENTION_FIELDS, attentionKeys, monthKeys, OPEN_STATUSES } from "../payment/store";
import { isLive, type SubscriptionRecord, scheduleKeys } from "../subscription/store";
import { staffIndexKeys } from "../user/role-entity";

export interface IndexBackfillSummary {
  /** Role items read. */
  roles: number;
  /** Staff roles given their staff index keys. */
  staff_keyed: number;
  /** Payment items read. */
  payments: number;
  /** Open payments given their attention index keys. */
  attention_keyed: number;
  /** Final payments whose attention keys were removed. */
  attention_removed: number;
  /** Payments given (or moved to) their list index keys: their organisation and due month. */
  month_keyed: number;
  /** Payments whose gsi1 keys (the organisation-wide index payments left) were removed. */
  organisation_key_removed: number;
  /** Subscription items read. */
  subscriptions: number;
  /** Live subscriptions given their schedule index keys. */
  schedule_keyed: number;
  /** Provider link items read. */
  links: number;
  /** Links given their `byProvider` index keys (the payout catch-up's list of connected accounts). */
  links_keyed: number;
  /** Items changed by someone else between the read and the write (they carry their keys). */
  skipped_changed: number;
}

export async function backfillIndexKeys(
  options: { onProgress?: (summary: IndexBackfillSummary) => void } = {},
): Promise<IndexBackfillSummary> {
  const summary: IndexBackfillSummary = {
    roles: 0,
    staff_keyed: 0,
    payments: 0,
    attention_keyed: 0,
    attention_removed: 0,
    month_keyed: 0,
    organisation_key_removed: 0,
    subscriptions: 0,
    schedule_keyed: 0,
    links: 0,
    links_keyed: 0,
    skipped_changed: 0,
  };
  let cursor: string | null = null;
  do {
    const page: { data: RoleItem[]; cursor: string | null } = await db().entities.role.scan.go({
      cursor,
      limit: 500,
    });
    summary.roles += page.data.length;
    for (const role of page.data) await keyRole(role, summary);
    options.onProgress?.(summary);
    cursor = page.cursor;
  } while (cursor);
  // Payments are read raw: the gsi1 keys they no longer carry are no attribute of the entity.
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new ScanCommand({
        TableName: config.tableName,
        FilterExpression: "#e = :e",
        ExpressionAttributeNames: { "#e": "__edb_e__" },
        ExpressionAttributeValues: { ":e": "payment" },
        Limit: 500,
        ExclusiveStartKey: start,
      }),
    );
    const raw = page.Items ?? [];
    const parsed = db().entities.payment.parse({ Items: raw }).data as PaymentItem[];
    summary.payments += parsed.length;
    for (let i = 0; i < parsed.length; i++) await keyPayment(parsed[i], raw[i], summary);
    options.onProgress?.(summary);
    start = page.LastEvaluatedKey;
  } while (start);
  cursor = null;
  const now = new Date();
  do {
    const page: { data: SubscriptionRecord[]; cursor: string | null } =
      await db().entities.subscription.scan.go({
        cursor,
        limit: 500,
      });
    summary.subscriptions += page.data.length;
    for (const sub of page.data) await keySubscription(sub, now, summary);
    options.onProgress?.(summary);
    cursor = page.cursor;
  } while (cursor);
  cursor = null;
  do {
    const page: { data: LinkItem[]; cursor: string | null } = await db().entities.providerLink.scan.go({
      cursor,
      limit: 500,
    });
    summary.links += page.data.length;
    for (const link of page.data) await keyLink(link, summary);
    options.onProgress?.(summary);
    cursor = page.cursor;
  } while (cursor);
  return summary;
}

type LinkItem = {
  provider: "stripe_account" | "kisi_place" | "kisi_webhook";
  external_id: string;
  organisation_id: string;
};

/**
 * A provider link gets its `byProvider` keys (the keys a Put writes today), on the condition that
 * the link still exists. ElectroDB's scan answers no key fields, so every link is written: the
 * write sets the same values again on a second run.
 */
async function keyLink(link: LinkItem, summary: IndexBackfillSummary) {
  const entity = db().entities.providerLink;
  const { Item, TableName } = entity.put(link).params() as {
    Item: Record<string, string>;
    TableName: string;
  };
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName,
        Key: { pk: Item.pk, sk: Item.sk },
        UpdateExpression: "SET gsi1pk = :pk, gsi1sk = :sk",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":pk": Item.gsi1pk, ":sk": Item.gsi1sk },
      }),
    );
    summary.links_keyed += 1;
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    summary.skipped_changed += 1;
  }
}

/** A live subscription without its schedule index keys gets them (one ended stays out). */
async function keySubscription(sub: SubscriptionRecord, now: Date, summary: IndexBackfillSummary) {
  if (sub.schedule_key || !isLive(sub, now)) return;
  try {
    await db()
      .entities.subscription.patch({
        organisation_id: sub.organisation_id,
        subscription_id: sub.subscription_id,
      })
      .set(scheduleKeys(sub))
      .where((attr, op) => op.eq(attr.updated_at, sub.updated_at))
      .go();
    summary.schedule_keyed += 1;
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    summary.skipped_changed += 1;
  }
}

type PaymentItem = {
  organisation_id: string;
  payment_id: string;
  due_on: string;
  status: string;
  attention_key?: string;
  month_key?: string;
  month_sort?: string;
  updated_at: string;
};

/**
 * A payment written before gsi1 left payments loses its gsi1 keys (leaves that index), with a write
 * conditional on the item as read that changes nothing else (so `updated_at` still holds for the
 * patch below).
 */
async function unkeyOrganisation(
  payment: PaymentItem,
  raw: Record<string, unknown>,
  summary: IndexBackfillSummary,
) {
  if (raw.gsi1pk === undefined && raw.gsi1sk === undefined) return;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: raw.pk, sk: raw.sk },
        UpdateExpression: "REMOVE gsi1pk, gsi1sk",
        ConditionExpression: "#u = :u",
        ExpressionAttributeNames: { "#u": "updated_at" },
        ExpressionAttributeValues: { ":u": payment.updated_at },
      }),
    );
    summary.organisation_key_removed += 1;
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    summary.skipped_changed += 1;
  }
}

async function keyPayment(payment: PaymentItem, raw: Record<string, unknown>, summary: IndexBackfillSummary) {
  await unkeyOrganisation(payment, raw, summary);
  const open = OPEN_STATUSES.includes(payment.status);
  const month = monthKeys(payment);
  const rekey = payment.month_key !== month.month_key || payment.month_sort !== month.month_sort;
  const attention = open !== Boolean(payment.attention_key);
  if (!rekey && !attention) return;
  // The month is named before the payment is in it (payment/months.ts).
  if (rekey) await notePaymentMonths([payment]);
  const key = { organisation_id: payment.organisation_id, payment_id: payment.payment_id };
  // One patch: the list keys (rekey), the attention keys set (opened) or removed (made final).
  const set = { ...(rekey ? month : {}), ...(attention && open ? attentionKeys(payment) : {}) };
  const patch = db()
    .entities.payment.patch(key)
    .set(set)
    .remove(attention && !open ? [...ATTENTION_FIELDS] : []);
  try {
    await patch.where((attr, op) => op.eq(attr.updated_at, payment.updated_at)).go();
    if (rekey) summary.month_keyed += 1;
    if (attention && open) summary.attention_keyed += 1;
    if (attention && !open) summary.attention_removed += 1;
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    summary.skipped_changed += 1;
  }
}

type RoleItem = {
  organisation_id: string;
  user_id: string;
  org_role: string;
  gym_roles: unknown[];
  deleted_at?: string;
  staff_key?: string;
  updated_at: string;
};

async function keyRole(role: RoleItem, summary: IndexBackfillSummary) {
  const keys = staffIndexKeys(role);
  if (!keys.staff_key || role.staff_key === keys.staff_key) return;
  try {
    await db()
      .entities.role.patch({ organisation_id: role.organisation_id, user_id: role.user_id })
      .set(keys)
      .where((attr, op) => op.eq(attr.updated_at, role.updated_at))
      .go();
    summary.staff_keyed += 1;
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    summary.skipped_changed += 1;
  }
}

/** ElectroDB wraps DynamoDB's error; either may name the failed condition. */
function conditionFailed(error: unknown): boolean {
  const e = error as { name?: string; cause?: { name?: string } } | undefined;
  return (
    e?.name === "ConditionalCheckFailedException" || e?.cause?.name === "ConditionalCheckFailedException"
  );
}
