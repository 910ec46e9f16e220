/**
 * Recounts an organisation's rollups from its payments and memberships (the local seed, whose
 * past payments are written as the billing run would have left them, and any repair). It reads
 * everything, so it is never on a request path; rollup.db.test.ts checks it agrees exactly with
 * the counters the live transitions keep.
 */
import { aucklandDate } from "../billing/calendar";
import { db } from "../db/service";
import type { PaymentRecord } from "../payment/store";
import type { SubscriptionRecord } from "../subscription/store";
import type { RollupCounter } from "./entity";
import { paymentRollup } from "./money";
import { type RollupChange, rollupChange, rollupRows } from "./writes";

const dayOf = (at: string | undefined, fallback: string) => (at ? aucklandDate(new Date(at)) : fallback);

/** The changes the live transitions would have counted for these records. */
export function recount(
  payments: PaymentRecord[],
  subs: SubscriptionRecord[],
  today: string,
): RollupChange[] {
  const byId = new Map(subs.map((s) => [s.subscription_id, s]));
  const changes: RollupChange[] = [];
  for (const s of subs) {
    changes.push(rollupChange(s, s.start_date, { joined: 1 }));
    if (s.cancelled_at)
      changes.push(rollupChange(s, dayOf(s.cancellation_effective_at, today), { cancelled: 1 }));
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
    const claimed = ["pending_request", "sent", "failed", "declined"].includes(p.status);
    if (claimed && !p.is_retry && !manual)
      changes.push(
        paymentRollup(p, sub, p.due_on, { expected: p.amount + (p.credit_used ?? 0), expected_count: 1 }),
      );
  }
  return changes;
}

export type RollupRow = { organisation_id: string; scope: string; day: string; dim: string } & Partial<
  Record<RollupCounter, number>
>;

/** The rows of a set of changes, summed. */
export function rowsOf(changes: RollupChange[]): Map<string, RollupRow> {
  const rows = new Map<string, RollupRow>();
  for (const change of changes) {
    for (const { key, delta } of rollupRows(change)) {
      const id = `${key.scope}|${key.day}|${key.dim}`;
      const row = rows.get(id) ?? { ...key };
      for (const [k, v] of Object.entries(delta))
        row[k as RollupCounter] = (row[k as RollupCounter] ?? 0) + (v ?? 0);
      rows.set(id, row);
    }
  }
  return rows;
}

/** Recounts and writes an organisation's rollup rows (and members' paid per month). */
export async function backfillRollups(organisationId: string, today: string) {
  const [payments, subs] = await Promise.all([
    db().entities.payment.query.byOrganisation({ organisation_id: organisationId }).go({ pages: "all" }),
    db().entities.subscription.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
  ]);
  return writeRecount(
    organisationId,
    recount(payments.data as PaymentRecord[], subs.data as SubscriptionRecord[], today),
  );
}

/** Writes the rows of recounted changes (overwriting), 25 to a batch, a few batches at once. */
export async function writeRecount(organisationId: string, changes: RollupChange[]) {
  const rows = [...rowsOf(changes).values()];
  await inBatches(rows, (batch) => db().entities.rollup.put(batch).go());
  const months = new Map<
    string,
    {
      organisation_id: string;
      gym_id: string;
      month: string;
      user_id: string;
      member_name?: string;
      offering_id?: string;
      paid: number;
    }
  >();
  for (const c of changes) {
    if (!c.member?.paid) continue;
    const id = `${c.subject.gym_id}|${c.day.slice(0, 7)}|${c.member.user_id}`;
    const row = months.get(id) ?? {
      organisation_id: organisationId,
      gym_id: c.subject.gym_id,
      month: c.day.slice(0, 7),
      user_id: c.member.user_id,
      member_name: c.member.member_name,
      offering_id: c.subject.offering_id ?? undefined,
      paid: 0,
    };
    row.paid += c.member.paid;
    months.set(id, row);
  }
  const list = [...months.values()];
  await inBatches(list, (batch) => db().entities.memberMonth.put(batch).go());
  return { rows: rows.length, members: list.length };
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
