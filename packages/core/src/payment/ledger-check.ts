/**
 * The ledger's invariants as code (docs/billing.md "The ledger's invariants"): for each
 * subscription, what its stored figures say against what its payments say. Read-only: it never
 * writes, so the money tests (after every test), the billing simulation (after every day) and the
 * daily reconciliation job can all run it.
 *
 * For a subscription S and its payments (each payment once, by id):
 * - **counted once**: `payments_sum` = Σ `amount` of its `sent` payments;
 * - **owing is the ledger's**: `balance_owing` / `periods_owing` = the debt rule over its payments
 *   (payment/debt.ts `ledgerDebt`);
 * - **paid = charged − owing + credit**: `payments_sum` = charged − `balance_owing` +
 *   `credit_balance`, where charged = Σ `amount` of its charges (not debt payments) that are sent or
 *   owed (failed, declined, awaiting payment) + Σ `credit_used` of every claimed charge (credit is
 *   spent when the charge is claimed); a `cancelled` payment was never charged and counts nowhere;
 * - no negative `credit_balance` or `balance_owing`.
 * And for an organisation (`checkOrganisationLedgers`): its scheduled-payment counters (rollup scope
 * `_scheduled`, the expected-payments page's days ahead) = what its payments give
 * (`scheduledChanges`), row by row (rule `scheduled`, `subscription_id` `_scheduled`).
 */
import { isFailedPaymentStatus } from "../billing/debt";
import { db } from "../db/service";
import { SCHEDULED_COUNTERS, SCHEDULED_ROLLUP, sumShards } from "../rollup/entity";
import { scheduledChanges } from "../rollup/money";
import { rollupRows } from "../rollup/writes";
import type { SubscriptionRecord } from "../subscription/store";
import { inLedger, ledgerDebt, paysDebt } from "./debt";
import { everyPayment } from "./every-payment";
import type { PaymentRecord } from "./store";

export type LedgerRule = "counted_once" | "owing" | "balance" | "negative" | "scheduled";

export interface LedgerBreak {
  organisation_id: string;
  subscription_id: string;
  rule: LedgerRule;
  detail: string;
}

type LedgerSubscription = Pick<
  SubscriptionRecord,
  | "organisation_id"
  | "subscription_id"
  | "payments_sum"
  | "balance_owing"
  | "periods_owing"
  | "credit_balance"
>;

/** The figures of the invariant for one subscription, as its payments give them. */
export function ledgerFigures(payments: readonly PaymentRecord[]) {
  let paid = 0;
  let charged = 0;
  for (const p of payments) {
    if (!inLedger(p)) continue;
    if (p.status === "sent") paid += p.amount;
    if (paysDebt(p)) continue;
    const owed = isFailedPaymentStatus(p.status) || p.status === "awaiting_payment";
    if (p.status === "sent" || owed) charged += p.amount;
    if (p.status !== "upcoming") charged += p.credit_used ?? 0;
  }
  return { paid, charged, debt: ledgerDebt(payments) };
}

/** What breaks the invariants for one subscription (empty when the ledger holds). */
export function ledgerBreaks(sub: LedgerSubscription, payments: readonly PaymentRecord[]): LedgerBreak[] {
  const breaks: LedgerBreak[] = [];
  const at = (rule: LedgerRule, detail: string) =>
    breaks.push({ organisation_id: sub.organisation_id, subscription_id: sub.subscription_id, rule, detail });
  const once = [...new Map(payments.map((p) => [p.payment_id, p])).values()];
  const { paid, charged, debt } = ledgerFigures(once);
  const paymentsSum = sub.payments_sum ?? 0;
  const owing = sub.balance_owing ?? 0;
  const credit = sub.credit_balance ?? 0;
  if (paymentsSum !== paid)
    at("counted_once", `payments_sum ${paymentsSum} but the sent payments add up to ${paid}`);
  if (owing !== debt.balance_owing || (sub.periods_owing ?? 0) !== debt.periods_owing)
    at(
      "owing",
      `balance_owing ${owing} (${sub.periods_owing ?? 0} periods) but the ledger owes ${debt.balance_owing} (${debt.periods_owing})`,
    );
  if (paymentsSum !== charged - owing + credit)
    at(
      "balance",
      `paid ${paymentsSum} ≠ charged ${charged} − owing ${owing} + credit ${credit} (= ${charged - owing + credit})`,
    );
  if (credit < 0 || owing < 0) at("negative", `credit_balance ${credit}, balance_owing ${owing}`);
  return breaks;
}

/** Every break over a set of subscriptions and payments (payments grouped by `subscription_id`). */
export function ledgerBreaksOf(
  subs: readonly LedgerSubscription[],
  payments: readonly PaymentRecord[],
): LedgerBreak[] {
  const bySub = new Map<string, PaymentRecord[]>();
  for (const p of payments)
    if (p.subscription_id) bySub.set(p.subscription_id, [...(bySub.get(p.subscription_id) ?? []), p]);
  return subs.flatMap((s) => ledgerBreaks(s, bySub.get(s.subscription_id) ?? []));
}

/** The breaks of the given subscriptions, read consistently (one read each, one Query of payments each). */
export async function checkSubscriptionLedgers(
  keys: readonly { organisation_id: string; subscription_id: string }[],
): Promise<LedgerBreak[]> {
  if (keys.length === 0) return [];
  return (await settled(async () => ({ checked: keys.length, breaks: await readAndCheck(keys) }))).breaks;
}

async function readAndCheck(
  keys: readonly { organisation_id: string; subscription_id: string }[],
): Promise<LedgerBreak[]> {
  // Each subscription's two reads wait on each other; the subscriptions are read side by side.
  const each = await Promise.all(
    keys.map(async (key) => {
      const { data: sub } = await db().entities.subscription.get(key).go({ consistent: true });
      if (!sub) return [];
      const { data } = await db()
        .entities.payment.query.byMember({ organisation_id: sub.organisation_id, user_id: sub.user_id })
        .where((a, op) => op.eq(a.subscription_id, sub.subscription_id))
        .go({ pages: "all" });
      return ledgerBreaks(sub as SubscriptionRecord, data as PaymentRecord[]);
    }),
  );
  return each.flat();
}

export type Check = { checked: number; breaks: LedgerBreak[] };

/**
 * The subscriptions and the payments are two reads: a settlement committing between them (its
 * payment and its subscription change in one transaction) shows a break that is not there. So
 * what breaks is read again after a moment, and only a break seen both times is answered.
 */
export async function settled(check: () => Promise<Check>): Promise<Check> {
  const first = await check();
  if (first.breaks.length === 0) return first;
  await new Promise((resolve) => setTimeout(resolve, 250));
  const second = await check();
  const seen = new Set(first.breaks.map((b) => `${b.subscription_id} ${b.rule}`));
  return { ...second, breaks: second.breaks.filter((b) => seen.has(`${b.subscription_id} ${b.rule}`)) };
}

type Counted = Partial<Record<(typeof SCHEDULED_COUNTERS)[number], number>>;

/** A row's scheduled counters, those at zero left out (a row adding up to nothing is no row). */
function scheduledOf(row: Counted): string {
  return JSON.stringify(
    Object.fromEntries(SCHEDULED_COUNTERS.map((c) => [c, row[c] ?? 0]).filter(([, v]) => v)),
  );
}

/**
 * The scheduled-payment rows (day and gym) whose counters, shards summed, differ from what the
 * organisation's payments give: the counters drifted (a write of an upcoming payment without
 * `scheduledChanges`). `backfillRollups` rewrites them.
 */
export function scheduledBreaks(
  organisationId: string,
  payments: readonly PaymentRecord[],
  rows: ({ day: string; dim: string } & Counted)[],
): LedgerBreak[] {
  const expected = new Map<string, Counted>();
  for (const change of payments.flatMap((p) => scheduledChanges(null, p)))
    for (const { key, delta } of rollupRows(change)) {
      const id = `${key.day} ${key.dim}`;
      const row = expected.get(id) ?? {};
      for (const [c, v] of Object.entries(delta))
        row[c as keyof Counted] = (row[c as keyof Counted] ?? 0) + (v ?? 0);
      expected.set(id, row);
    }
  const live = new Map(sumShards(rows).map((r) => [`${r.day} ${r.dim}`, r as Counted]));
  const breaks: LedgerBreak[] = [];
  for (const id of new Set([...expected.keys(), ...live.keys()])) {
    const counted = scheduledOf(live.get(id) ?? {});
    const given = scheduledOf(expected.get(id) ?? {});
    if (counted !== given)
      breaks.push({
        organisation_id: organisationId,
        subscription_id: SCHEDULED_ROLLUP,
        rule: "scheduled",
        detail: `${id}: counted ${counted} but the upcoming payments give ${given}`,
      });
  }
  return breaks;
}

/**
 * Every subscription of an organisation (one Query of subscriptions, paged; its payments by month:
 * every-payment.ts), and its scheduled-payment counters (one Query of the `_scheduled` rows).
 */
export function checkOrganisationLedgers(organisationId: string): Promise<Check> {
  return settled(async () => {
    const [{ data: subs }, payments, { data: rows }] = await Promise.all([
      db().entities.subscription.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
      everyPayment(organisationId),
      db()
        .entities.rollup.query.primary({ organisation_id: organisationId, scope: SCHEDULED_ROLLUP })
        .go({ pages: "all" }),
    ]);
    return {
      checked: subs.length,
      breaks: [
        ...ledgerBreaksOf(subs as SubscriptionRecord[], payments),
        ...scheduledBreaks(organisationId, payments, rows),
      ],
    };
  });
}
