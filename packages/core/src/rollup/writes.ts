/**
 * The rollup items a change adds to, as transaction items for the caller's own transaction: a
 * change is counted exactly when its conditional write succeeds (a replayed webhook or a re-run
 * job fails that condition, the whole transaction with it, and counts nothing).
 * Over 300 lines on purpose: every counter write is here, so what writes the dashboard's counters
 * is this one file (settlement, jobs, lifecycle and visits only call it).
 */
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { pauseWindow } from "../billing/subscription-state";
import { retryWait } from "../db/retry";
import { db } from "../db/service";
import { COST_DIM, churnRank, costBucketOf, isChurnRisk } from "./cost";
import {
  COUNTER_SHARDS,
  ORGANISATION_ROLLUP,
  type RollupCounter,
  SCHEDULED_ROLLUP,
  scheduledDim,
  TOTAL_DAY,
} from "./entity";

/** What a change is about: its gym, and for the breakdowns its offering, frequency and payment method. */
export interface RollupSubject {
  organisation_id: string;
  gym_id: string;
  offering_id?: string | null;
  billing_frequency?: string | null;
  payment_method?: string | null;
}

export type RollupDelta = Partial<Record<RollupCounter, number>>;

/** The member a change is about, for their month row (cost per visit). */
export interface RollupMember {
  user_id: string;
  member_name?: string;
  paid?: number;
  visits?: number;
}

export interface RollupChange {
  subject: RollupSubject;
  day: CivilDate;
  delta: RollupDelta;
  member?: RollupMember;
  /** Only the offering's rows (a membership moving between offerings: docs/data-model.md "Rollups"). */
  offeringOnly?: boolean;
  /** Only the gym's row in the scheduled-payment scope (`scheduledChanges`, rollup/money.ts). */
  scheduled?: boolean;
}

/** Counters that are running totals (their sum over every day up to today is a current count). */
const RUNNING: readonly RollupCounter[] = ["joined", "cancelled", "owing", "owing_count", "paused"];

/** What the rollup entities of a transaction callback offer (ElectroDB's transaction entity, structurally). */
type Committable = { commit(): unknown };
type Where = (
  attrs: Record<string, unknown>,
  op: { eq(a: unknown, v: unknown): string; notExists(a: unknown): string },
) => string;
type TxUpdate = {
  add(values: Record<string, number>): TxUpdate & Committable;
  set(values: Record<string, string | number>): TxUpdate;
  where(condition: Where): Committable;
};
type TxEntity = {
  update(key: Record<string, string>): TxUpdate;
  put(item: Record<string, unknown>): Committable;
  delete(key: Record<string, string>): Committable;
};
/** The entities a transaction callback receives (`db().transaction.write(tx => ...)`). */
export type RollupTx = { rollup: unknown; memberMonth: unknown; churnRisk?: unknown };

function nonZero(delta: RollupDelta): RollupDelta {
  return Object.fromEntries(Object.entries(delta).filter(([, v]) => v !== undefined && v !== 0));
}

type RollupKey = { organisation_id: string; scope: string; day: string; dim: string };

/**
 * The rows (scope, day, dim) one change adds to, each with its delta: money and visits go to the
 * day's `all` and offering rows; running counters (members, owing) also to the total rows and
 * the frequency and payment-method rows.
 */
export function rollupRows(change: RollupChange): { key: RollupKey; delta: RollupDelta }[] {
  const { subject, day } = change;
  const delta = nonZero(change.delta);
  if (change.scheduled) {
    if (!Object.keys(delta).length) return [];
    const scope = SCHEDULED_ROLLUP;
    return [
      {
        key: { organisation_id: subject.organisation_id, scope, day, dim: scheduledDim(subject.gym_id) },
        delta,
      },
    ];
  }
  const out: { key: RollupKey; delta: RollupDelta }[] = [];
  for (const running of [false, true]) {
    const part = Object.fromEntries(
      Object.entries(delta).filter(([k]) => RUNNING.includes(k as RollupCounter) === running),
    ) as RollupDelta;
    if (!Object.keys(part).length) continue;
    const dims = [
      change.offeringOnly ? null : "all",
      subject.offering_id ? `o:${subject.offering_id}` : null,
      running && subject.billing_frequency ? `f:${subject.billing_frequency}` : null,
      running && subject.payment_method ? `t:${subject.payment_method}` : null,
    ].filter((d): d is string => d !== null);
    for (const scope of [subject.gym_id, ORGANISATION_ROLLUP])
      for (const d of running ? [day, TOTAL_DAY] : [day])
        for (const dim of dims)
          out.push({ key: { organisation_id: subject.organisation_id, scope, day: d, dim }, delta: part });
  }
  return out;
}

type MonthKey = { organisation_id: string; gym_id: string; month: string; user_id: string };
/** A member-month row's values as read before a change (absent row: zeros). */
export type MemberMonthState = { paid: number; visits: number; member_name?: string };
/** A member's paid and visits in one month at one gym (the `member_month` item). */
export type MemberMonthRow = MonthKey & {
  member_name?: string;
  offering_id?: string;
  paid: number;
  visits: number;
};

/** How a member-month row is named in the maps below. */
export const memberMonthId = (gymId: string, month: string, userId: string) => `${gymId}|${month}|${userId}`;

/** The member-month rows changes move, each with its summed paid and visits. */
export function memberMonthsOf(changes: RollupChange[]): Map<string, MemberMonthRow> {
  const months = new Map<string, MemberMonthRow>();
  for (const c of changes) {
    const m = c.member;
    if (!m || !(m.paid || m.visits)) continue;
    const id = memberMonthId(c.subject.gym_id, c.day.slice(0, 7), m.user_id);
    const row = months.get(id) ?? {
      organisation_id: c.subject.organisation_id,
      gym_id: c.subject.gym_id,
      month: c.day.slice(0, 7),
      user_id: m.user_id,
      paid: 0,
      visits: 0,
    };
    row.paid += m.paid ?? 0;
    row.visits += m.visits ?? 0;
    if (m.member_name) row.member_name = m.member_name;
    if (c.subject.offering_id) row.offering_id = c.subject.offering_id;
    months.set(id, row);
  }
  return months;
}

/**
 * Changes, with the member-month rows they move as read now: the histogram and churn-risk moves
 * depend on those values, and the row's update is conditional on them (writeCounted).
 */
export interface PreparedRollup {
  changes: RollupChange[];
  months: Map<string, MemberMonthState>;
}

/** Reads the member-month rows a set of changes touches (one GetItem each; usually one or none). */
export async function prepareRollup(...changes: RollupChange[]): Promise<PreparedRollup> {
  return prepareRollupKnowing(undefined, changes);
}

/** As prepareRollup, taking the rows in `known` (read by the caller a moment ago) as read. */
async function prepareRollupKnowing(
  known: Map<string, MemberMonthState> | undefined,
  changes: RollupChange[],
): Promise<PreparedRollup> {
  const months = new Map<string, MemberMonthState>();
  await Promise.all(
    [...memberMonthsOf(changes)].map(async ([id, m]) => {
      const held = known?.get(id);
      if (held) {
        months.set(id, held);
        return;
      }
      const { data } = await db()
        .entities.memberMonth.get({
          organisation_id: m.organisation_id,
          gym_id: m.gym_id,
          month: m.month,
          user_id: m.user_id,
        })
        .go();
      months.set(id, { paid: data?.paid ?? 0, visits: data?.visits ?? 0, member_name: data?.member_name });
    }),
  );
  return { changes, months };
}

/**
 * Runs a transaction that counts changes (`write` builds it, adding `items(tx)`): the member-month
 * rows are read first and their updates are conditional on those values, so the cost-per-visit
 * histogram and the churn-risk list move exactly once. If the transaction is cancelled by a
 * transaction conflict, or a row it read has changed since (a concurrent change to the same
 * member's month), it is read again and retried (at most 5 tries); otherwise the cancellation is
 * the caller's own condition and is returned as is. `known`: member-month rows the caller read in
 * its own batch a moment ago, taken as read on the first try (the updates stay conditional on them).
 */
export async function writeCounted<T extends { canceled: boolean }>(
  changes: RollupChange[],
  write: (items: (tx: RollupTx) => never[]) => Promise<T>,
  known?: Map<string, MemberMonthState>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    // The first try may take rows the caller read with its own (`known`); a retry reads them again.
    const prepared = await prepareRollupKnowing(attempt === 0 ? known : undefined, changes);
    const result = await write((tx) => rollupItems(tx, prepared));
    if (!result.canceled || attempt >= 4) return result;
    // Another transaction on the same items was in flight (a counter shard, the member's month):
    // wait as every cancelled money transaction does (db/retry.ts) and try again, on the next shard.
    const reasons = (result as { data?: unknown }).data;
    if (
      Array.isArray(reasons) &&
      reasons.some((r) => (r as { code?: string })?.code === "TransactionConflict")
    ) {
      await retryWait(attempt);
      continue;
    }
    if (!prepared.months.size) return result;
    const again = await prepareRollup(...changes);
    const same = [...prepared.months].every(([id, v]) => {
      const now = again.months.get(id);
      return now?.paid === v.paid && now?.visits === v.visits;
    });
    if (same) return result;
  }
}

/**
 * The counter shard the next transaction adds to: each call takes the next one, from a random
 * start per process, so up to COUNTER_SHARDS transactions in flight in one process (the billing
 * run's claims, a webhook burst) never write the same counter row, and a retry after a conflict
 * writes another shard than the try that met it.
 */
let nextShard = Math.floor(Math.random() * COUNTER_SHARDS);
export function takeCounterShard(): number {
  nextShard = (nextShard + 1) % COUNTER_SHARDS;
  return nextShard;
}

/**
 * The transaction items of changes (several changes to one row are summed into one item), added to
 * one counter shard (`takeCounterShard`). Changes
 * that move a member's month need its row as read (`prepareRollup`, or `writeCounted`).
 */
export function rollupItems(tx: RollupTx, ...input: (RollupChange | PreparedRollup)[]) {
  const changes = input.flatMap((c) => ("changes" in c ? c.changes : [c]));
  const read = new Map(input.flatMap((c) => ("months" in c ? [...c.months] : [])));
  const rows = new Map<string, { key: RollupKey; delta: RollupDelta }>();
  const addRow = (key: RollupKey, delta: RollupDelta) => {
    const id = `${key.scope}|${key.day}|${key.dim}`;
    const row = rows.get(id) ?? { key, delta: {} };
    for (const [k, v] of Object.entries(delta))
      row.delta[k as RollupCounter] = (row.delta[k as RollupCounter] ?? 0) + (v ?? 0);
    rows.set(id, row);
  };
  for (const change of changes) for (const { key, delta } of rollupRows(change)) addRow(key, delta);
  const memberItems: unknown[] = [];
  for (const [id, m] of memberMonthsOf(changes)) {
    const before = read.get(id);
    if (!before) throw new Error("A member-month change needs its row read first (prepareRollup).");
    const after = { paid: before.paid + m.paid, visits: before.visits + m.visits };
    const key = { organisation_id: m.organisation_id, gym_id: m.gym_id, month: m.month, user_id: m.user_id };
    memberItems.push(
      (tx.memberMonth as TxEntity)
        .update(key)
        .set({
          ...(m.member_name ? { member_name: m.member_name } : {}),
          ...(m.offering_id ? { offering_id: m.offering_id } : {}),
          paid: after.paid,
          visits: after.visits,
        })
        .where((a, op) =>
          (["paid", "visits"] as const)
            .map((f) =>
              before[f] === 0 ? `(${op.notExists(a[f])} OR ${op.eq(a[f], 0)})` : op.eq(a[f], before[f]),
            )
            .join(" AND "),
        )
        .commit(),
    );
    const scopes = [key.gym_id, ORGANISATION_ROLLUP];
    // The month's histogram: bucket out −1, bucket in +1.
    const out = costBucketOf(before.paid, before.visits);
    const into = costBucketOf(after.paid, after.visits);
    if (out !== into)
      for (const scope of scopes)
        addRow(
          { organisation_id: key.organisation_id, scope, day: key.month, dim: COST_DIM },
          { ...(out ? { [out]: -1 } : {}), ...(into ? { [into]: 1 } : {}) },
        );
    // The churn-risk list: the item at the old rank out, the new one in.
    const wasRisk = isChurnRisk(before.paid, before.visits);
    const isRisk = isChurnRisk(after.paid, after.visits);
    if (wasRisk && (!isRisk || before.paid !== after.paid))
      for (const scope of scopes)
        memberItems.push(
          (tx.churnRisk as TxEntity)
            .delete({
              organisation_id: key.organisation_id,
              scope,
              month: key.month,
              rank: churnRank(before.paid),
              user_id: key.user_id,
              gym_id: key.gym_id,
            })
            .commit(),
        );
    if (isRisk && (!wasRisk || before.paid !== after.paid))
      for (const scope of scopes)
        memberItems.push(
          (tx.churnRisk as TxEntity)
            .put(churnItem(key, scope, after.paid, m.member_name ?? before.member_name))
            .commit(),
        );
  }
  const shard = takeCounterShard();
  const items = [...rows.values()]
    .map((row) => ({ key: row.key, delta: nonZero(row.delta) }))
    .filter((row) => Object.keys(row.delta).length)
    .map((row) =>
      (tx.rollup as TxEntity)
        .update({ ...row.key, shard } as never)
        .add(row.delta as Record<string, number>)
        .commit(),
    );
  return [...items, ...memberItems] as never[];
}

/** A churn-risk item of a member's month. */
export function churnItem(key: MonthKey, scope: string, paid: number, memberName?: string) {
  return {
    organisation_id: key.organisation_id,
    scope,
    month: key.month,
    rank: churnRank(paid),
    user_id: key.user_id,
    gym_id: key.gym_id,
    paid,
    ...(memberName ? { member_name: memberName } : {}),
  };
}

/**
 * One visit at gym G on day D by member M: the change to count in the visit's own write
 * transaction (the visit record's conditional put makes it count once). `pass`: the visit used
 * one of a visit pass's visits (counted in the same transaction as the pass's own count).
 */
export function visitChange(
  visit: RollupSubject & { user_id: string; member_name?: string; day: CivilDate; pass?: boolean },
): RollupChange {
  const { pass, ...subject } = visit;
  return {
    subject,
    day: visit.day,
    delta: { visits: 1, ...(pass ? { pass_visits_used: 1 } : {}) },
    member: { user_id: visit.user_id, member_name: visit.member_name, visits: 1 },
  };
}

/** The subscription fields a rollup subject reads. */
export interface SubjectFacts {
  paused_at?: string;
  pause_start_at?: string;
  pause_end_at?: string;
  organisation_id: string;
  gym_id: string;
  offering_id?: string;
  billing_frequency?: string;
  payment_method?: string;
  transition_to_offering_id?: string;
  transition_takes_effect_at?: string;
  transition_to_date?: string;
  cancelled_at?: string;
  cancellation_effective_at?: string;
}

const civilOf = (at: string | undefined): CivilDate | null =>
  at ? (/^\d{4}-\d{2}-\d{2}$/.test(at) ? at : aucklandDate(new Date(at))) : null;

/**
 * The move a scheduled price change to another offering's price makes: from the membership's
 * offering to the new price's on the day it takes effect. None when the price is the same
 * offering's, or the membership's cancellation takes effect first.
 */
export function offeringMove(sub: SubjectFacts): { from: string; to: string; day: CivilDate } | null {
  const to = sub.transition_to_offering_id;
  const day = civilOf(sub.transition_takes_effect_at ?? sub.transition_to_date);
  if (!to || !day || !sub.offering_id || to === sub.offering_id) return null;
  const leaves = sub.cancelled_at ? civilOf(sub.cancellation_effective_at) : null;
  if (sub.cancelled_at && (!leaves || leaves <= day)) return null;
  return { from: sub.offering_id, to, day };
}

/** The subject of a subscription's changes on a day (its offering: the one it counts under that day). */
export function subjectOf(sub: SubjectFacts, day?: CivilDate): RollupSubject {
  const move = offeringMove(sub);
  return {
    organisation_id: sub.organisation_id,
    gym_id: sub.gym_id,
    offering_id: move && day && day >= move.day ? move.to : sub.offering_id,
    billing_frequency: sub.billing_frequency,
    payment_method: sub.payment_method,
  };
}

/** A subscription's change (joined, cancelled, owing) on a day. */
export function rollupChange(sub: SubjectFacts, day: CivilDate, delta: RollupDelta): RollupChange {
  return { subject: subjectOf(sub, day), day, delta };
}

/**
 * A cancellation taking effect on `day` (`sign` −1: undone). A membership whose cancellation
 * takes effect before its start date never became a member: its join is taken back on the start date instead, so
 * it leaves the upcoming count without ever counting as active or cancelled.
 */
export function cancellationChange(
  sub: SubjectFacts & { start_date?: string },
  day: CivilDate,
  sign: 1 | -1,
): RollupChange {
  if (sub.start_date && day < sub.start_date) return rollupChange(sub, sub.start_date, { joined: -sign });
  return rollupChange(sub, day, { cancelled: sign });
}

/** The offer fields of a membership the offers' counters read (snapshotted when it is made). */
export interface OfferFacts {
  trial_ends_on?: string;
  promo_code_id?: string;
  pass_visits?: number;
  cancelled_at?: string;
}

/**
 * What a membership's create counts besides `joined`, on its start date (docs/offers.md
 * "Reporting"): a trial started, a promo code used, a visit pass sold.
 */
export function joinDelta(sub: OfferFacts): RollupDelta {
  return {
    joined: 1,
    ...(sub.trial_ends_on ? { trials_started: 1 } : {}),
    ...(sub.promo_code_id ? { codes_used: 1 } : {}),
    ...(sub.pass_visits ? { passes_sold: 1 } : {}),
  };
}

/**
 * A cancellation recorded on `recordedDay` before the membership's trial ended stops the trial
 * (`sign` −1: the cancellation undone takes it back from that day). None outside a trial.
 */
export function trialStopChanges(
  sub: SubjectFacts & OfferFacts,
  recordedDay: CivilDate,
  sign: 1 | -1,
): RollupChange[] {
  if (!sub.trial_ends_on || recordedDay >= sub.trial_ends_on) return [];
  return [rollupChange(sub, recordedDay, { trials_stopped: sign })];
}

/**
 * A membership's pause in the running `paused` counter (`sign` −1 takes it back): +1 on the
 * Auckland day it starts, −1 on the day it ends (the first day running again), using the derived
 * state's pause window, so "paused now" = the total minus the days after today.
 */
export function pauseChanges(sub: SubjectFacts, sign: 1 | -1): RollupChange[] {
  const pause = pauseWindow(sub);
  if (!pause) return [];
  const start = aucklandDate(pause.start);
  const end = pause.end ? aucklandDate(pause.end) : null;
  if (end !== null && end <= start) return [];
  return [
    rollupChange(sub, start, { paused: sign }),
    ...(end ? [rollupChange(sub, end, { paused: -sign })] : []),
  ];
}

/**
 * The offering rows of a move (`sign` −1 takes one back): on its day the membership leaves the
 * old offering's member count (`cancelled` on `o:<from>`) and joins the new one's (`joined` on
 * `o:<to>`); the `all`, frequency and payment-method rows do not change.
 */
export function offeringMoveChanges(sub: SubjectFacts, sign: 1 | -1): RollupChange[] {
  const move = offeringMove(sub);
  if (!move) return [];
  const base = { ...subjectOf(sub), billing_frequency: null, payment_method: null };
  return [
    {
      subject: { ...base, offering_id: move.from },
      day: move.day,
      delta: { cancelled: sign },
      offeringOnly: true,
    },
    {
      subject: { ...base, offering_id: move.to },
      day: move.day,
      delta: { joined: sign },
      offeringOnly: true,
    },
  ];
}
