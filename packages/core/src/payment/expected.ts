/**
 * `GET /api/expected-payments-debugging` (organisation admins): what the next billing runs will
 * charge, by due date and gym, and what is stuck.
 *
 *  - Expected: the organisation's payments due from today for `days` days that are still
 *    `upcoming`, per day and gym, from the scheduled-payment counters (rollup scope `_scheduled`,
 *    kept by every write of an upcoming payment: `scheduledChanges`, rollup/money.ts): one Query of
 *    at most days × gyms × COUNTER_SHARDS rows, however many members the organisation has.
 *  - Due soon, waiting for a new bank consent: counted apart by the same rows; only when some
 *    day has one are that range's upcoming payments read (the list index, at most DUE_SOON_READ
 *    items: `partial` says that bound was reached, and the list may then miss some).
 *  - Needs attention (`stuck`), newest due first, paged (`cursor` → `next_cursor`): overdue,
 *    waiting for a new bank consent, bank transfers not yet received, in flight too long or flagged
 *    after polls, from the attention index (gsi4 `attention#<organisation>#<shard>`: open payments
 *    only, entity.ts), due before today (or the cursor), every shard side by side; the first page
 *    starts with the payments due soon that wait for a consent. What a page reads is bounded by
 *    its size, not by the organisation's history or the payments still open.
 *  - The debt owed now (`owing`): the dashboard's running total row, no payment read.
 *  - Provider mismatches: what the daily reconciliation recorded (reconcile.ts), one Query.
 */

import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffOrganisation } from "../auth/scope";
import { addDays, type CivilDate } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { businessNow, businessToday } from "../clock";
import { config } from "../config";
import { type ExpectedPayments, expectedPaymentsQuery, type StuckReason } from "../contract/payment";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { WORK_SHARDS } from "../db/shards";
import {
  ORGANISATION_ROLLUP,
  type RollupCounter,
  SCHEDULED_ROLLUP,
  sumShards,
  TOTAL_DAY,
} from "../rollup/entity";
import { nzDate, nzDateTime, titleCase } from "../text";
import { parse } from "../validation";
import { paymentTypes } from "./entity";
import { MAX_POLLS } from "./jobs/payment-polling";
import { rangePayments } from "./list";
import { presentPayment } from "./present";
import { organisationMismatches } from "./reconcile";
import { OPEN_STATUSES, type PaymentRecord } from "./store";

/** A claimed payment unsettled for longer than this is shown as pending too long. */
export const PENDING_TOO_LONG_MS = 24 * 60 * 60 * 1000;
/** A bank transfer (pay in full) not received this many days after it was due is shown. */
export const TRANSFER_LATE_DAYS = 7;
/** Payments due soon that wait for a new consent, shown on the first page (latest due first). */
const DUE_SOON_SHOWN = 100;
/** Items the due-soon list reads at most (the upcoming payments of the days that have one waiting). */
const DUE_SOON_READ = 2_000;

type Group = ExpectedPayments["days"][number]["gyms"][number];
type ScheduledRow = Partial<Record<RollupCounter, number>> & { day: string; dim: string };

/**
 * The scheduled-payment rows of the days from `from` to `to` (one row per day and gym that has
 * payments to charge or waiting; shards summed): one Query of the organisation's `_scheduled` scope.
 */
async function scheduledRows(
  organisationId: string,
  from: CivilDate,
  to: CivilDate,
): Promise<ScheduledRow[]> {
  const { data } = await db()
    .entities.rollup.query.primary({ organisation_id: organisationId, scope: SCHEDULED_ROLLUP })
    .between({ day: from }, { day: `${to}~` })
    .go({ pages: "all" });
  return sumShards(data as ScheduledRow[]).filter((r) => r.day >= from && r.day <= to);
}

/** The days ahead as the page shows them: each day's gyms with payments to charge, by gym name. */
function daysOf(rows: ScheduledRow[], gymName: (gymId: string) => string): ExpectedPayments["days"] {
  const byDate = new Map<string, Group[]>();
  for (const row of rows) {
    const count = row.scheduled_count ?? 0;
    if (count <= 0) continue;
    const gymId = row.dim.slice(2);
    const amount = row.scheduled_amount ?? 0;
    const surcharge = row.scheduled_surcharge ?? 0;
    const by_type: Record<string, number> = {};
    for (const type of paymentTypes) {
      const n = row[`scheduled_${type}`] ?? 0;
      if (n) by_type[type] = n;
    }
    const groups = byDate.get(row.day) ?? [];
    groups.push({
      gym: { id: gymId, name: gymName(gymId) },
      count,
      amount,
      surcharge,
      total: amount + surcharge,
      formatted_total: formatCents(amount + surcharge),
      by_type,
    });
    byDate.set(row.day, groups);
  }
  return [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, gyms]) => {
      const groups = gyms.sort((a, b) => a.gym.name.localeCompare(b.gym.name));
      const total = groups.reduce((sum, g) => sum + g.total, 0);
      return {
        date,
        count: groups.reduce((sum, g) => sum + g.count, 0),
        total,
        formatted_total: formatCents(total),
        gyms: groups,
      };
    });
}

/**
 * The payments due in the window that wait for a new consent: none read when the counters say
 * there are none (the usual case); else the upcoming payments of the days from the first such day
 * to the last, at most DUE_SOON_READ items (list index, list.ts).
 */
async function waitingSoon(
  organisationId: string,
  rows: ScheduledRow[],
): Promise<{ items: PaymentRecord[]; partial: boolean }> {
  const days = rows
    .filter((r) => (r.scheduled_waiting ?? 0) > 0)
    .map((r) => r.day)
    .sort();
  if (!days.length) return { items: [], partial: false };
  const read = await rangePayments({
    organisationId,
    filters: { status: "upcoming", from: days[0], to: days[days.length - 1] },
    budget: DUE_SOON_READ,
  });
  return { items: read.items.filter((p) => p.waiting_for), partial: read.partial };
}

/** Open payments a page of the "needs attention" list examines (newest due first, over every shard). */
export const ATTENTION_PAGE = 100;

/**
 * One page of the organisation's open payments due before `before` (today, or the cursor: the
 * `<due_on>#<payment_id>` of the last one the page before examined), newest due first: each shard
 * of the attention index side by side, `ATTENTION_PAGE` from each, merged; the page ends at the
 * `ATTENTION_PAGE`th (every payment sorting after it is among the shards' first `ATTENTION_PAGE`),
 * and its sort key is where the next page goes on. A payment made final by a write that left its
 * keys (a claim paid by credit, one cancelled at its claim) is skipped here and its keys removed by
 * `backfill-index-keys`.
 */
async function needingAttention(
  organisationId: string,
  before: string,
): Promise<{ items: PaymentRecord[]; next: string | null }> {
  const shards = await Promise.all(
    Array.from({ length: WORK_SHARDS }, async (_, shard) => {
      const answer = await dynamo().send(
        new QueryCommand({
          TableName: config.tableName,
          IndexName: "gsi4",
          KeyConditionExpression: "#k = :k AND #s < :before",
          ExpressionAttributeNames: { "#k": "gsi4pk", "#s": "gsi4sk" },
          ExpressionAttributeValues: { ":k": `attention#${organisationId}#${shard}`, ":before": before },
          ScanIndexForward: false,
          Limit: ATTENTION_PAGE,
        }),
      );
      const items = db().entities.payment.parse({ Items: answer.Items ?? [] }).data as PaymentRecord[];
      return { items, more: Boolean(answer.LastEvaluatedKey) };
    }),
  );
  const sortOf = (p: PaymentRecord) => p.attention_sort ?? `${p.due_on}#${p.payment_id}`;
  const merged = shards.flatMap((s) => s.items).sort((a, b) => (sortOf(a) < sortOf(b) ? 1 : -1));
  const page = merged.slice(0, ATTENTION_PAGE);
  const more = merged.length > ATTENTION_PAGE || shards.some((s) => s.more);
  return {
    items: page.filter((p) => OPEN_STATUSES.includes(p.status)),
    next: more && page.length ? sortOf(page[page.length - 1]) : null,
  };
}

/** The debt owed now: the organisation's running total row (its shards summed), as the dashboard reads it. */
async function owingNow(organisationId: string): Promise<ExpectedPayments["owing"]> {
  const { data } = await db()
    .entities.rollup.query.primary({ organisation_id: organisationId, scope: ORGANISATION_ROLLUP })
    .begins({ day: TOTAL_DAY, dim: "all" })
    .go({ pages: "all" });
  const total = sumShards(data.filter((r) => r.dim === "all")).find((r) => r.day === TOTAL_DAY);
  const amount = total?.owing ?? 0;
  return { amount, count: total?.owing_count ?? 0, formatted_amount: formatCents(amount) };
}

export async function expectedPayments(actor: Actor, query: unknown): Promise<ExpectedPayments> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins can see expected payments.");
  const { days = 14, cursor } = parse(expectedPaymentsQuery, query);
  const [today, now] = await Promise.all([businessToday(), businessNow()]);
  const until = addDays(today, days - 1);

  const gymNames = new Map(actor.gyms.map((g) => [g.gym_id, g.name]));
  const [ahead, open, mismatched, owing] = await Promise.all([
    scheduledRows(organisationId, today, until).then(async (rows) => ({
      days: daysOf(rows, (id) => gymNames.get(id) ?? id),
      // Listed on the first page only.
      waiting: cursor ? { items: [], partial: false } : await waitingSoon(organisationId, rows),
    })),
    needingAttention(organisationId, cursor && cursor < today ? cursor : today),
    organisationMismatches(organisationId),
    owingNow(organisationId),
  ]);
  const mismatches = mismatched.map((m) => ({
    payment_id: m.payment_id,
    user: { id: m.user_id, name: titleCase(m.member_name) },
    gym: { id: m.gym_id, name: m.gym_name },
    due_on: m.due_on,
    provider: m.provider,
    provider_id: m.provider_id,
    kind: m.kind,
    our_status: m.our_status,
    our_amount: m.our_amount,
    provider_status: m.provider_status ?? null,
    provider_amount: m.provider_amount ?? null,
    detail: m.detail,
    found_at: m.found_at,
  }));

  // Newest due first: the first page starts with the payments due soon that wait for a new consent
  // (at most DUE_SOON_SHOWN, latest due first), then the page of the attention index.
  const dueSoon: ExpectedPayments["stuck"] = [];
  const stuck: ExpectedPayments["stuck"] = [];
  const add = (reason: StuckReason, detail: string, p: PaymentRecord) => {
    stuck.push({ reason, detail, payment: presentPayment(p) });
  };

  for (const p of ahead.waiting.items)
    dueSoon.push({
      reason: "waiting_for_consent",
      detail: "Due soon; the member must consent to bank payments again first.",
      payment: presentPayment(p),
    });

  for (const p of open.items) {
    if (p.status === "upcoming") {
      if (p.waiting_for)
        add("waiting_for_consent", "Waiting for the member to consent to bank payments again.", p);
      else add("overdue", `Due ${nzDate(p.due_on)} and not charged yet.`, p);
      continue;
    }
    if (p.status === "awaiting_payment") {
      if (p.due_on <= addDays(today, -TRANSFER_LATE_DAYS))
        add("awaiting_transfer", `Bank transfer due ${nzDate(p.due_on)} not marked received.`, p);
      continue;
    }
    const claimedAt = p.claimed_at ? Date.parse(p.claimed_at) : now.getTime();
    if (p.error_status || p.poll_count >= MAX_POLLS) {
      add(
        "flagged",
        `Still unsettled after ${p.poll_count} polls${p.error_status ? ` (${p.error_status})` : ""}.`,
        p,
      );
    } else if (now.getTime() - claimedAt > PENDING_TOO_LONG_MS) {
      add("pending_too_long", `Sent to the provider ${nzDateTime(p.claimed_at)} and not settled.`, p);
    }
  }

  const soon = cursor
    ? []
    : dueSoon
        .sort((a, b) =>
          a.payment.due_on === b.payment.due_on ? 0 : a.payment.due_on < b.payment.due_on ? 1 : -1,
        )
        .slice(0, DUE_SOON_SHOWN);
  return {
    today,
    until,
    days: ahead.days,
    stuck: [...soon, ...stuck],
    next_cursor: open.next,
    owing,
    mismatches,
    partial: ahead.waiting.partial,
  };
}
