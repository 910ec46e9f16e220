/**
 * `GET /api/expected-payments-debugging` (organisation admins): what the next billing runs will
 * charge, by due date and gym, and what is stuck.
 *
 *  - Expected: the organisation's payments due from today for `days` days that are still
 *    `upcoming` (one Query of gsi1 over that id range: ids sort by due date).
 *  - Overdue, waiting for a new bank consent, bank transfers not yet received: the same Query over
 *    the previous LOOKBACK_DAYS, filtered to `upcoming` and `awaiting_payment`.
 *  - In flight too long or flagged after polls: the in-flight work index (gsi3 `inflight#<shard>`,
 *    only pending_request payments are in it, so it is small), filtered to the organisation.
 *  - Provider mismatches: what the daily reconciliation recorded (reconcile.ts), one Query.
 * Reads are bounded (READ_BUDGET items per part); `partial` says a bound was reached.
 */

import type { Actor } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffOrganisation } from "../auth/scope";
import { addDays, type CivilDate } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { businessNow, businessToday } from "../clock";
import { type ExpectedPayments, expectedPaymentsQuery, type StuckReason } from "../contract/payment";
import { db } from "../db/service";
import { shardPages } from "../db/shard-pages";
import { nzDate, nzDateTime, titleCase } from "../text";
import { parse } from "../validation";
import { MAX_POLLS } from "./jobs/payment-polling";
import { organisationPaymentsPage } from "./list";
import { presentPayment } from "./present";
import { organisationMismatches } from "./reconcile";
import type { PaymentRecord } from "./store";

export const LOOKBACK_DAYS = 31;
/** A claimed payment unsettled for longer than this is shown as pending too long. */
export const PENDING_TOO_LONG_MS = 24 * 60 * 60 * 1000;
/** A bank transfer (pay in full) not received this many days after it was due is shown. */
export const TRANSFER_LATE_DAYS = 7;
const READ_BUDGET = 20_000;
const STUCK_SHOWN = 200;

async function allOf(
  organisationId: string,
  filters: { status?: "upcoming"; from: CivilDate; to: CivilDate },
): Promise<{ items: PaymentRecord[]; partial: boolean }> {
  const items: PaymentRecord[] = [];
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await organisationPaymentsPage({
      organisationId,
      gymIds: null,
      filters,
      cursor,
      perPage: 1000,
      order: "asc",
    });
    items.push(...page.items);
    read += page.items.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor && read < READ_BUDGET);
  return { items, partial: Boolean(cursor) };
}

/** The organisation's in-flight payments (pending_request) from the in-flight work index. */
async function inFlight(organisationId: string): Promise<PaymentRecord[]> {
  const out: PaymentRecord[] = [];
  const pages = shardPages({
    index: "gsi3",
    family: "inflight",
    where: { attribute: "organisation_id", value: organisationId },
  });
  for await (const items of pages) {
    out.push(...(db().entities.payment.parse({ Items: items }).data as PaymentRecord[]));
    if (out.length >= READ_BUDGET) break;
  }
  return out;
}

export async function expectedPayments(actor: Actor, query: unknown): Promise<ExpectedPayments> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins can see expected payments.");
  const { days = 14 } = parse(expectedPaymentsQuery, query);
  const [today, now] = await Promise.all([businessToday(), businessNow()]);
  const until = addDays(today, days - 1);

  const [ahead, behind, flying, mismatched] = await Promise.all([
    allOf(organisationId, { status: "upcoming", from: today, to: until }),
    allOf(organisationId, { from: addDays(today, -LOOKBACK_DAYS), to: addDays(today, -1) }),
    inFlight(organisationId),
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

  for (const p of behind.items) {
    if (p.status === "upcoming") {
      if (p.waiting_for)
        add("waiting_for_consent", "Waiting for the member to consent to bank payments again.", p);
      else add("overdue", `Due ${nzDate(p.due_on)} and not charged yet.`, p);
    } else if (p.status === "awaiting_payment" && p.due_on <= addDays(today, -TRANSFER_LATE_DAYS)) {
      add("awaiting_transfer", `Bank transfer due ${nzDate(p.due_on)} not marked received.`, p);
    }
  }
  for (const p of flying) {
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
  return { today, until, days: dayList, stuck, mismatches, partial: ahead.partial || behind.partial };
}
