/**
 * `GET /api/expected-payments-debugging` (organisation admins): what the next billing runs will
 * charge, by due date and gym, and what is stuck.
 *
 *  - Expected: the organisation's payments due from today for `days` days that are still
 *    `upcoming` (the list index, gsi5: the range's one or two months side by side, list.ts).
 *  - Overdue, waiting for a new bank consent, bank transfers not yet received, in flight too long
 *    or flagged after polls: the attention index (gsi4 `attention#<organisation>#<shard>`: open
 *    payments only, entity.ts), due before today, newest first, every shard side by side. What it
 *    reads grows with the payments still open, not with the organisation's history.
 *  - Provider mismatches: what the daily reconciliation recorded (reconcile.ts), one Query.
 * Reads are bounded (READ_BUDGET items per part, ATTENTION_BUDGET per shard); `partial` says a
 * bound was reached.
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
import { nzDate, nzDateTime, titleCase } from "../text";
import { parse } from "../validation";
import { MAX_POLLS } from "./jobs/payment-polling";
import { rangePayments } from "./list";
import { presentPayment } from "./present";
import { organisationMismatches } from "./reconcile";
import { OPEN_STATUSES, type PaymentRecord } from "./store";

/** A claimed payment unsettled for longer than this is shown as pending too long. */
export const PENDING_TOO_LONG_MS = 24 * 60 * 60 * 1000;
/** A bank transfer (pay in full) not received this many days after it was due is shown. */
export const TRANSFER_LATE_DAYS = 7;
const READ_BUDGET = 20_000;
const STUCK_SHOWN = 200;

function allOf(
  organisationId: string,
  filters: { status?: "upcoming"; from: CivilDate; to: CivilDate },
): Promise<{ items: PaymentRecord[]; partial: boolean }> {
  return rangePayments({ organisationId, filters, budget: READ_BUDGET });
}

/** Open payments one shard of the attention index reads at most per page. */
const ATTENTION_BUDGET = 1_000;

/**
 * The organisation's open payments due before `today`, newest due first (the attention index, every
 * shard side by side). A payment made final by a write that left its keys (a claim paid by credit,
 * one cancelled at its claim) is skipped here and its keys removed by `backfill-index-keys`.
 */
async function needingAttention(
  organisationId: string,
  today: CivilDate,
): Promise<{ items: PaymentRecord[]; partial: boolean }> {
  const shards = await Promise.all(
    Array.from({ length: WORK_SHARDS }, async (_, shard) => {
      const out: PaymentRecord[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const answer = await dynamo().send(
          new QueryCommand({
            TableName: config.tableName,
            IndexName: "gsi4",
            KeyConditionExpression: "#k = :k AND #s < :today",
            ExpressionAttributeNames: { "#k": "gsi4pk", "#s": "gsi4sk" },
            ExpressionAttributeValues: { ":k": `attention#${organisationId}#${shard}`, ":today": today },
            ScanIndexForward: false,
            Limit: ATTENTION_BUDGET - out.length,
            ExclusiveStartKey: start,
          }),
        );
        out.push(...(db().entities.payment.parse({ Items: answer.Items ?? [] }).data as PaymentRecord[]));
        start = answer.LastEvaluatedKey;
      } while (start && out.length < ATTENTION_BUDGET);
      return { items: out, partial: Boolean(start) };
    }),
  );
  const items = shards
    .flatMap((s) => s.items)
    .filter((p) => OPEN_STATUSES.includes(p.status))
    .sort((a, b) =>
      a.due_on === b.due_on ? (a.payment_id < b.payment_id ? 1 : -1) : a.due_on < b.due_on ? 1 : -1,
    );
  return { items, partial: shards.some((s) => s.partial) };
}

export async function expectedPayments(actor: Actor, query: unknown): Promise<ExpectedPayments> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins can see expected payments.");
  const { days = 14 } = parse(expectedPaymentsQuery, query);
  const [today, now] = await Promise.all([businessToday(), businessNow()]);
  const until = addDays(today, days - 1);

  const [ahead, open, mismatched] = await Promise.all([
    allOf(organisationId, { status: "upcoming", from: today, to: until }),
    needingAttention(organisationId, today),
    organisationMismatches(organisationId),
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

  const stuck: ExpectedPayments["stuck"] = [];
  const add = (reason: StuckReason, detail: string, p: PaymentRecord) => {
    if (stuck.length < STUCK_SHOWN) stuck.push({ reason, detail, payment: presentPayment(p) });
  };

  const byDate = new Map<string, Map<string, ExpectedPayments["days"][number]["gyms"][number]>>();
  for (const p of ahead.items) {
    if (p.waiting_for) {
      add("waiting_for_consent", "Due soon; the member must consent to bank payments again first.", p);
      continue;
    }
    const gyms = byDate.get(p.due_on) ?? new Map();
    byDate.set(p.due_on, gyms);
    const group = gyms.get(p.gym_id) ?? {
      gym: { id: p.gym_id, name: p.gym_name },
      count: 0,
      amount: 0,
      surcharge: 0,
      total: 0,
      formatted_total: "",
      by_type: {},
    };
    group.count += 1;
    group.amount += p.amount;
    group.surcharge += p.surcharge;
    group.total += p.amount + p.surcharge;
    group.formatted_total = formatCents(group.total);
    group.by_type[p.type] = (group.by_type[p.type] ?? 0) + 1;
    gyms.set(p.gym_id, group);
  }

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

  const dayList = [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, gyms]) => {
      const groups = [...gyms.values()].sort((a, b) => a.gym.name.localeCompare(b.gym.name));
      const total = groups.reduce((sum, g) => sum + g.total, 0);
      return {
        date,
        count: groups.reduce((sum, g) => sum + g.count, 0),
        total,
        formatted_total: formatCents(total),
        gyms: groups,
      };
    });
  return { today, until, days: dayList, stuck, mismatches, partial: ahead.partial || open.partial };
}
