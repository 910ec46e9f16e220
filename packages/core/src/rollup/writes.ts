/**
 * The rollup items a change adds to, as transaction items for the caller's own transaction: a
 * change is counted exactly when its conditional write succeeds (a replayed webhook or a re-run
 * job fails that condition, the whole transaction with it, and counts nothing).
 */
import type { CivilDate } from "../billing/calendar";
import { ORGANISATION_ROLLUP, type RollupCounter, TOTAL_DAY } from "./entity";

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
}

/** Counters that are running totals (their sum over every day up to today is a current count). */
const RUNNING: readonly RollupCounter[] = ["joined", "cancelled", "owing", "owing_count"];

/** What the rollup entities of a transaction callback offer (ElectroDB's transaction entity, structurally). */
type Committable = { commit(): unknown };
type TxUpdate = {
  add(values: Record<string, number>): Committable;
  set(values: Record<string, string>): TxUpdate;
};
type TxEntity = { update(key: Record<string, string>): TxUpdate };
/** The entities a transaction callback receives (`db().transaction.write(tx => ...)`). */
export type RollupTx = { rollup: unknown; memberMonth: unknown };

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
  const out: { key: RollupKey; delta: RollupDelta }[] = [];
  for (const running of [false, true]) {
    const part = Object.fromEntries(
      Object.entries(delta).filter(([k]) => RUNNING.includes(k as RollupCounter) === running),
    ) as RollupDelta;
    if (!Object.keys(part).length) continue;
    const dims = [
      "all",
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

/** The transaction items of changes (several changes to one row are summed into one item). */
export function rollupItems(tx: RollupTx, ...changes: RollupChange[]) {
  const rows = new Map<string, { key: RollupKey; delta: RollupDelta }>();
  const members = new Map<string, { key: Record<string, string>; member: RollupMember }>();
  for (const change of changes) {
    for (const { key, delta } of rollupRows(change)) {
      const id = `${key.scope}|${key.day}|${key.dim}`;
      const row = rows.get(id) ?? { key, delta: {} };
      for (const [k, v] of Object.entries(delta))
        row.delta[k as RollupCounter] = (row.delta[k as RollupCounter] ?? 0) + (v ?? 0);
      rows.set(id, row);
    }
    const m = change.member;
    if (m && (m.paid || m.visits)) {
      const key = {
        organisation_id: change.subject.organisation_id,
        gym_id: change.subject.gym_id,
        month: change.day.slice(0, 7),
        user_id: m.user_id,
      };
      const id = `${key.gym_id}|${key.month}|${key.user_id}`;
      const seen = members.get(id);
      members.set(id, {
        key,
        member: {
          ...m,
          paid: (seen?.member.paid ?? 0) + (m.paid ?? 0),
          visits: (seen?.member.visits ?? 0) + (m.visits ?? 0),
        },
      });
    }
  }
  const items = [...rows.values()]
    .filter((row) => Object.values(row.delta).some((v) => v !== 0))
    .map((row) =>
      (tx.rollup as TxEntity)
        .update(row.key)
        .add(nonZero(row.delta) as Record<string, number>)
        .commit(),
    );
  const memberItems = [...members.values()].map(({ key, member }) => {
    const subjectOffering = changes.find((c) => c.member?.user_id === member.user_id)?.subject.offering_id;
    return (tx.memberMonth as TxEntity)
      .update(key)
      .set({
        ...(member.member_name ? { member_name: member.member_name } : {}),
        ...(subjectOffering ? { offering_id: subjectOffering } : {}),
      })
      .add(nonZero({ paid: member.paid, visits: member.visits } as RollupDelta) as Record<string, number>)
      .commit();
  });
  return [...items, ...memberItems] as never[];
}

/**
 * One visit at gym G on day D by member M: the items to add to the visit's own write transaction
 * (the visit record's conditional put makes it count once).
 */
export function visitRollupItems(
  tx: RollupTx,
  visit: RollupSubject & { user_id: string; member_name?: string; day: CivilDate },
) {
  return rollupItems(tx, {
    subject: visit,
    day: visit.day,
    delta: { visits: 1 },
    member: { user_id: visit.user_id, member_name: visit.member_name, visits: 1 },
  });
}

/** The subject of a subscription's changes. */
export function subjectOf(sub: {
  organisation_id: string;
  gym_id: string;
  offering_id?: string;
  billing_frequency?: string;
  payment_method?: string;
}): RollupSubject {
  return {
    organisation_id: sub.organisation_id,
    gym_id: sub.gym_id,
    offering_id: sub.offering_id,
    billing_frequency: sub.billing_frequency,
    payment_method: sub.payment_method,
  };
}

/** A subscription's change (joined, cancelled, owing) on a day. */
export function rollupChange(
  sub: Parameters<typeof subjectOf>[0],
  day: CivilDate,
  delta: RollupDelta,
): RollupChange {
  return { subject: subjectOf(sub), day, delta };
}
