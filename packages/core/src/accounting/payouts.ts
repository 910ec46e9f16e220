/**
 * `GET /api/payouts` (docs/accounting.md "Payouts"): every deposit into the organisation's gyms'
 * banks that arrived in a period, newest first, each with the payments inside it, the fees, a
 * "doesn't add up" flag and the journal that matches its bank line; `POST /api/payouts/export` the
 * same deposits as a CSV file (one row per payment, written by exports/csv.ts: formulas neutralised).
 *
 * - Stripe: the payouts recorded from `payout.paid` (payout-events.ts), one Query by arrival day.
 * - Akahu: bank account payments are paid straight into the gym's account, so a day's settled bank
 *   payments at a gym are that day's settlement (no fee): read from the payments like the journals.
 */
import { type Actor, organisationGyms } from "../auth/actor";
import { authorize, policy } from "../auth/policy";
import { staffOrganisation } from "../auth/scope";
import { addDays, type CivilDate, daysBetween } from "../billing/calendar";
import { formatCents } from "../billing/money";
import {
  accountMessages,
  type Payout,
  payoutExportBody,
  payoutExportColumns,
  payoutListQuery,
} from "../contract/accounting";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { csvRows } from "../exports/csv";
import { civilDateNz } from "../exports/dates";
import { type WrittenExport, writeExport } from "../exports/file";
import { parse } from "../validation";
import { mappingOf } from "./mapping";
import type { PayoutLine } from "./payout-events";
import { payoutJournal } from "./payout-journal";
import { settledOn, settledPayments } from "./settled";

export const MAX_PAYOUT_DAYS = 92;
const PER_PAGE = 25;

interface StoredPayout {
  arrival_date: CivilDate;
  payout_id: string;
  gym_id: string;
  amount: number;
  fee: number;
  gross: number;
  lines: PayoutLine[];
}

/** What makes a payout not add up (pure): a line not ours as charged, or payments − fees ≠ deposit. */
export function payoutProblems(payout: { amount: number; fee: number; gross: number; lines: PayoutLine[] }) {
  const problems = payout.lines
    .filter((l) => l.problem)
    .map((l) => `${l.provider_ref ?? l.payment_id ?? "a charge"} (${formatCents(l.amount)}): ${l.problem}`);
  if (payout.gross - payout.fee !== payout.amount)
    problems.push(
      `the payments (${formatCents(payout.gross)}) less the fees (${formatCents(payout.fee)}) are not the deposit (${formatCents(payout.amount)})`,
    );
  return problems;
}

async function stripePayouts(organisationId: string, from: CivilDate, to: CivilDate) {
  const { data } = await db()
    .entities.payout.query.primary({ organisation_id: organisationId })
    .between({ arrival_date: from }, { arrival_date: addDays(to, 1) })
    .go({ pages: "all" });
  return (data as StoredPayout[]).filter((p) => p.arrival_date >= from && p.arrival_date <= to);
}

/** A day's settled bank payments at a gym: that day's Akahu settlement. */
async function akahuSettlements(
  organisationId: string,
  gymIds: string[] | null,
  from: CivilDate,
  to: CivilDate,
): Promise<StoredPayout[]> {
  const payments = (await settledPayments({ organisationId, gymIds, from, to })).filter(
    (p) => p.type === "bank_account",
  );
  const byDay = new Map<string, StoredPayout>();
  for (const p of payments) {
    const day = settledOn(p);
    const key = `${day}#${p.gym_id}`;
    const settlement = byDay.get(key) ?? {
      arrival_date: day,
      payout_id: day,
      gym_id: p.gym_id,
      amount: 0,
      fee: 0,
      gross: 0,
      lines: [],
    };
    const amount = p.amount + p.surcharge;
    settlement.amount += amount;
    settlement.gross += amount;
    settlement.lines.push({
      payment_id: p.payment_id,
      provider_ref: p.akahu_id ?? null,
      member_name: p.member_name ?? null,
      amount,
      fee: 0,
      problem: null,
    });
    byDay.set(key, settlement);
  }
  return [...byDay.values()];
}

const idOf = (provider: "stripe" | "akahu", p: StoredPayout) =>
  provider === "stripe" ? `stripe:${p.payout_id}` : `akahu:${p.gym_id}:${p.arrival_date}`;

/** A period's deposits, newest first (checked: admins, 92 days at most, the organisation's gym). */
async function periodPayouts(
  actor: Actor,
  organisationId: string,
  values: { from: CivilDate; to: CivilDate; gym_id?: string; provider?: "stripe" | "akahu" },
): Promise<Payout[]> {
  if (daysBetween(values.from, values.to) + 1 > MAX_PAYOUT_DAYS)
    throw new ValidationError({ to: [accountMessages.payoutsTooLong] });
  const gyms = await organisationGyms(actor, organisationId);
  if (values.gym_id !== undefined && !gyms.some((g) => g.gym_id === values.gym_id))
    throw new NotFoundError("gym");
  const gymName = new Map(gyms.map((g) => [g.gym_id, g.name]));
  const inGym = (p: StoredPayout) => values.gym_id === undefined || p.gym_id === values.gym_id;
  const [mapping, stripe, akahu] = await Promise.all([
    mappingOf(organisationId),
    values.provider === "akahu" ? [] : stripePayouts(organisationId, values.from, values.to),
    values.provider === "stripe"
      ? []
      : akahuSettlements(organisationId, values.gym_id ? [values.gym_id] : null, values.from, values.to),
  ]);
  const all: Payout[] = [
    ...stripe.filter(inGym).map((p) => ({ provider: "stripe" as const, p })),
    ...akahu.filter(inGym).map((p) => ({ provider: "akahu" as const, p })),
  ].map(({ provider, p }) => {
    const gym_name = gymName.get(p.gym_id) ?? "";
    const problems = payoutProblems(p);
    return {
      id: idOf(provider, p),
      provider,
      provider_id: p.payout_id,
      gym_id: p.gym_id,
      gym_name,
      arrival_date: p.arrival_date,
      amount: p.amount,
      fee: p.fee,
      gross: p.gross,
      formatted_amount: formatCents(p.amount),
      payments: p.lines,
      adds_up: problems.length === 0,
      problems,
      journal: payoutJournal({
        provider,
        ref: p.payout_id,
        arrival_date: p.arrival_date,
        gym_name,
        amount: p.amount,
        fee: p.fee,
        mapping,
      }),
    };
  });
  // Newest first; then by gym and id, so a cursor (the last id shown) finds its place again.
  all.sort(
    (a, b) =>
      b.arrival_date.localeCompare(a.arrival_date) ||
      a.gym_name.localeCompare(b.gym_name) ||
      a.id.localeCompare(b.id),
  );
  return all;
}

export async function listPayouts(actor: Actor, query: unknown) {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may see the payouts.");
  const values = parse(payoutListQuery, query ?? {});
  const all = await periodPayouts(actor, organisationId, values);
  const perPage = values.per_page ?? PER_PAGE;
  let start = 0;
  if (values.cursor) {
    const at = all.findIndex((p) => p.id === values.cursor);
    if (at < 0) throw new ValidationError({ cursor: [accountMessages.cursor] });
    start = at + 1;
  }
  const data = all.slice(start, start + perPage);
  const more = start + perPage < all.length;
  return { data, meta: { next_cursor: more ? data[data.length - 1].id : null, per_page: perPage } };
}

/** The CSV's rows of one deposit: one per payment inside it (none: one row), the deposit's columns repeated. */
export function payoutExportRows(p: Payout): (string | number)[][] {
  const deposit = [
    p.id,
    p.provider === "stripe" ? "Stripe" : "Akahu",
    p.provider_id,
    p.gym_name,
    civilDateNz(p.arrival_date),
    p.amount,
    p.fee,
    p.gross,
    p.adds_up ? "yes" : "no",
    p.problems.join("; "),
  ];
  if (!p.payments.length) return [[...deposit, "", "", "", "", "", ""]];
  return p.payments.map((l) => [
    ...deposit,
    l.payment_id ?? "",
    l.provider_ref ?? "",
    l.member_name ?? "",
    l.amount,
    l.fee,
    l.problem ?? "",
  ]);
}

/** `POST /api/payouts/export`: the period's deposits as a CSV file; answers where it is (docs/exports.md). */
export async function exportPayouts(actor: Actor, body: unknown): Promise<WrittenExport> {
  const organisationId = staffOrganisation(actor);
  authorize(policy.manageOrganisation(actor), "Only organisation admins may see the payouts.");
  const values = parse(payoutExportBody, body ?? {});
  const all = await periodPayouts(actor, organisationId, values);
  return writeExport(
    organisationId,
    `payouts-${values.from}-to-${values.to}.csv`,
    (async function* () {
      yield `\uFEFF${await csvRows([payoutExportColumns as unknown as string[]])}`;
      if (all.length) yield await csvRows(all.flatMap(payoutExportRows));
    })(),
  );
}
