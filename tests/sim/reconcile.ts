/**
 * Reconciliation: what the simulated providers' ledger says was taken from each member, against
 * what the reference model (tests/reference/model.ts) says should have been. Pure: the simulator
 * gathers both sides and this decides. One discrepancy per period (or per stray charge).
 */
import type { Day } from "../reference/model";

/** What should have been taken for one period (or a break fee), surcharge included. */
export interface ExpectedCharge {
  due: Day;
  kind: "period" | "break_fee" | "retry";
  /** Cents the member pays: amount + joining fee (+ card surcharge). */
  total: number;
}

/** A charge the provider took (ledger entry with money moved), with the engine's label for it. */
export interface TakenCharge {
  member: string;
  idempotency_key: string;
  amount: number;
  /** The engine's payment the charge was for: its due date, kind and whether it was a retry. */
  due: Day;
  kind: "period" | "break_fee" | "retry";
}

/** What a member whose every charge is declined must see: nothing taken, no charge after grace. */
export interface DecliningMember {
  member: string;
  hard: boolean;
  /** Grace ends (Auckland day): no regular charge may be attempted on or after it. */
  grace_ends: Day;
  /** Every attempt (taken or not) the providers saw for the member. */
  attempts: { due: Day; kind: TakenCharge["kind"]; taken: boolean }[];
  /** The engine cancelled the membership (failed payments) once grace was over. */
  cancelled: boolean;
  /** The simulation ran past the grace end. */
  past_grace: boolean;
}

export interface Discrepancy {
  member: string;
  due: Day | null;
  expected: number;
  charged: number;
  reason: "missed" | "double" | "amount" | "unexpected" | "declined" | "unattributed";
  detail: string;
}

export interface Reconciliation {
  members: number;
  periods: number;
  payments: number;
  total_charged: number;
  total_expected: number;
  discrepancies: Discrepancy[];
  double_charges: number;
  missed_periods: number;
}

export function reconcile(input: {
  expected: Map<string, ExpectedCharge[]>;
  taken: TakenCharge[];
  declining?: DecliningMember[];
  unattributed?: { idempotency_key: string; amount: number }[];
}): Reconciliation {
  const discrepancies: Discrepancy[] = [];
  const byMember = new Map<string, TakenCharge[]>();
  for (const t of input.taken) byMember.set(t.member, [...(byMember.get(t.member) ?? []), t]);
  let periods = 0;
  let totalExpected = 0;
  for (const [member, expected] of input.expected) {
    const taken = [...(byMember.get(member) ?? [])];
    for (const e of expected) {
      periods += e.kind === "period" ? 1 : 0;
      totalExpected += e.total;
      const matching = taken.filter((t) => t.kind === e.kind && t.due === e.due);
      for (const t of matching) taken.splice(taken.indexOf(t), 1);
      const charged = matching.reduce((sum, t) => sum + t.amount, 0);
      const label =
        e.kind === "break_fee" ? "break fee" : e.kind === "retry" ? "retry of the balance" : "period";
      if (matching.length === 0)
        discrepancies.push({
          member,
          due: e.due,
          expected: e.total,
          charged: 0,
          reason: "missed",
          detail: `${label} not charged`,
        });
      else if (matching.length > 1)
        discrepancies.push({
          member,
          due: e.due,
          expected: e.total,
          charged,
          reason: "double",
          detail: `${label} charged ${matching.length} times (${matching.map((t) => t.idempotency_key).join(", ")})`,
        });
      else if (charged !== e.total)
        discrepancies.push({
          member,
          due: e.due,
          expected: e.total,
          charged,
          reason: "amount",
          detail: `${label} amount differs`,
        });
    }
    for (const t of taken)
      discrepancies.push({
        member,
        due: t.due,
        expected: 0,
        charged: t.amount,
        reason: "unexpected",
        detail: `${t.kind === "retry" ? "a retry" : t.kind === "break_fee" ? "a break fee" : "a period"} the model does not charge (${t.idempotency_key})`,
      });
  }
  for (const [member, taken] of byMember)
    if (!input.expected.has(member) && !(input.declining ?? []).some((d) => d.member === member))
      for (const t of taken)
        discrepancies.push({
          member,
          due: t.due,
          expected: 0,
          charged: t.amount,
          reason: "unexpected",
          detail: "a member the model does not know",
        });
  for (const d of input.declining ?? []) {
    for (const a of d.attempts) {
      if (a.taken)
        discrepancies.push({
          member: d.member,
          due: a.due,
          expected: 0,
          charged: 0,
          reason: "declined",
          detail: "money taken from a declining method",
        });
      if (a.kind !== "retry" && a.due >= d.grace_ends)
        discrepancies.push({
          member: d.member,
          due: a.due,
          expected: 0,
          charged: 0,
          reason: "declined",
          detail: `charge attempted after grace ended on ${d.grace_ends}`,
        });
      if (a.kind === "retry" && d.hard)
        discrepancies.push({
          member: d.member,
          due: a.due,
          expected: 0,
          charged: 0,
          reason: "declined",
          detail: "a hard decline was retried",
        });
    }
    if (d.past_grace && !d.cancelled)
      discrepancies.push({
        member: d.member,
        due: d.grace_ends,
        expected: 0,
        charged: 0,
        reason: "declined",
        detail: "not cancelled when grace ended with debt owing",
      });
  }
  for (const u of input.unattributed ?? [])
    discrepancies.push({
      member: "?",
      due: null,
      expected: 0,
      charged: u.amount,
      reason: "unattributed",
      detail: `ledger entry ${u.idempotency_key} matches no payment`,
    });
  const payments = input.taken.length;
  return {
    members: input.expected.size + (input.declining?.length ?? 0),
    periods,
    payments,
    total_charged: input.taken.reduce((sum, t) => sum + t.amount, 0),
    total_expected: totalExpected,
    discrepancies,
    double_charges: discrepancies.filter((d) => d.reason === "double").length,
    missed_periods: discrepancies.filter((d) => d.reason === "missed").length,
  };
}

const dollars = (cents: number) =>
  `${cents < 0 ? "-" : ""}$${(Math.abs(cents) / 100).toLocaleString("en-NZ", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function formatDiscrepancy(d: Discrepancy, describe: (member: string) => string = (m) => m): string {
  return `✗ ${describe(d.member)} ${d.due ?? "—"}: expected ${dollars(d.expected)}, charged ${dollars(d.charged)} — ${d.reason}: ${d.detail}`;
}

export { dollars };
