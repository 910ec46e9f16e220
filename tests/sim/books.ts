/**
 * The simulation's books (issue 37, docs/accounting.md "The simulated year"): the run's days
 * exported as Xero journals (the export's own builder, `periodJournals`, so each (day, gym) is kept
 * as an accountant's export would keep it), every journal balanced to the cent, and what they say
 * was collected split as the accountant reads it: income, card surcharges, joining and break fees,
 * credit taken ahead. The simulation compares the collected total with the reference model's.
 */
import type { Day } from "../reference/model";

export interface Books {
  journals: number;
  /** Journals whose lines do not sum to zero (narrations); none, or the export is wrong. */
  unbalanced: string[];
  /** Debits to the clearing accounts: the money the journals say came in. */
  collected: number;
  /** Of it, card payments (Stripe clearing): what Stripe's payouts must pay out. */
  cards: number;
  /** Credits to income: memberships, pay in full, balances paid at the desk, memberships paid from credit. */
  income: number;
  surcharges: number;
  /** Joining fees and break fees. */
  fees: number;
  /** Credit taken ahead at the desk (the liability) less credit used: collected = income + surcharges + fees + credit. */
  credit: number;
}

/** Adds up a period's journals (pure). Credits are negative amounts; the sums are positive. */
export function booksOf(
  journals: readonly { narration: string; lines: readonly { description: string; amount: number }[] }[],
  descriptions: {
    collected: (kind: "card" | "bank" | "desk" | "transfer") => string;
    joining: string;
    breakFees: string;
    surcharges: string;
    creditTaken: string;
    creditUsed: string;
  },
): Books {
  const collectedWords = new Set((["card", "bank", "desk", "transfer"] as const).map(descriptions.collected));
  const books: Books = {
    journals: journals.length,
    unbalanced: [],
    collected: 0,
    cards: 0,
    income: 0,
    surcharges: 0,
    fees: 0,
    credit: 0,
  };
  for (const journal of journals) {
    if (journal.lines.reduce((s, l) => s + l.amount, 0) !== 0) books.unbalanced.push(journal.narration);
    for (const line of journal.lines) {
      const d = line.description;
      if (collectedWords.has(d)) {
        books.collected += line.amount;
        if (d === descriptions.collected("card")) books.cards += line.amount;
      } else if (d === descriptions.surcharges) books.surcharges -= line.amount;
      else if (d === descriptions.joining || d === descriptions.breakFees) books.fees -= line.amount;
      else if (d === descriptions.creditTaken || d === descriptions.creditUsed) books.credit -= line.amount;
      else books.income -= line.amount;
    }
  }
  return books;
}

/** The run's days as journals (in spans the export allows), added up. Call once the last day is over. */
export async function simulatedBooks(organisationId: string, from: Day, to: Day): Promise<Books> {
  const [{ periodJournals, orderedJournals, MAX_DAYS }, { lineDescriptions }, { addDays }] =
    await Promise.all([
      import("../../packages/core/src/accounting/export"),
      import("../../packages/core/src/accounting/journal"),
      import("../../packages/core/src/billing/calendar"),
    ]);
  const journals = [];
  for (let start = from; start <= to; start = addDays(start, MAX_DAYS)) {
    const end = addDays(start, MAX_DAYS - 1) < to ? addDays(start, MAX_DAYS - 1) : to;
    const { days } = await periodJournals(organisationId, { from: start, to: end });
    journals.push(...orderedJournals(days));
  }
  return booksOf(journals, lineDescriptions);
}

/** A payout as the books compare it: its id and each charge's PaymentIntent with amount and fee. */
interface ComparedPayout {
  id: string;
  charges: { ref: string | null; amount: number; fee: number }[];
}

export interface PayoutCheck {
  /** Payouts recorded (from `payout.paid`, or by the catch-up job), their charges and fees. */
  payouts: number;
  gross: number;
  fees: number;
  /** What the provider paid out: its payouts' charges. Equal to the recorded gross and fees. */
  paid_out: { payouts: number; charges: number; gross: number; fees: number };
  /** Succeeded charges the provider has not paid out yet: paid out + in transit = the journals' card payments. */
  in_transit: { charges: number; gross: number };
  /** Each way the recorded payouts differ from the provider's (none, or the books are wrong). */
  mismatches: string[];
  /** Recorded payouts that do not add up (a charge not ours as charged, payments − fees ≠ deposit). */
  problems: string[];
}

/**
 * Compares the recorded payouts with the provider's (pure): every payout the provider paid is
 * recorded once with exactly its charges (by PaymentIntent, amount and fee), none other is
 * recorded, and no charge is in two payouts.
 */
export function comparePayouts(
  recorded: readonly ComparedPayout[],
  provider: readonly ComparedPayout[],
): string[] {
  const mismatches: string[] = [];
  const key = (c: ComparedPayout["charges"][number]) => `${c.ref} ${c.amount} ${c.fee}`;
  const ours = new Map(recorded.map((p) => [p.id, p]));
  for (const paid of provider) {
    const found = ours.get(paid.id);
    if (!found) {
      mismatches.push(`${paid.id}: paid out by the provider (${paid.charges.length} charges), not recorded`);
      continue;
    }
    const want = paid.charges.map(key).sort().join("|");
    if (found.charges.map(key).sort().join("|") !== want)
      mismatches.push(`${paid.id}: recorded with other charges than the provider paid out`);
  }
  const theirs = new Set(provider.map((p) => p.id));
  for (const p of recorded) if (!theirs.has(p.id)) mismatches.push(`${p.id}: recorded, not the provider's`);
  const seen = new Map<string, string>();
  for (const p of recorded)
    for (const c of p.charges) {
      if (!c.ref) continue;
      const before = seen.get(c.ref);
      if (before) mismatches.push(`${c.ref}: in payouts ${before} and ${p.id}`);
      seen.set(c.ref, p.id);
    }
  return mismatches;
}

/**
 * The run's Stripe payouts against the simulated Stripe's (issue 37, docs/accounting.md "The
 * simulated year"): the recorded ones, what the provider paid out on the organisation's gyms'
 * accounts, and the succeeded charges it has not paid out yet (in transit).
 */
export async function simulatedPayouts(organisationId: string): Promise<PayoutCheck> {
  const [
    { db },
    { payoutProblems },
    { listGyms },
    { simulatedStripePayouts },
    { simulatedSucceededIntents },
  ] = await Promise.all([
    import("../../packages/core/src/db/service"),
    import("../../packages/core/src/accounting/payouts"),
    import("../../packages/core/src/gym/service"),
    import("../../packages/core/src/simulators/stripe-payouts"),
    import("../../packages/core/src/simulators/stripe-payments"),
  ]);
  const [{ data }, gyms] = await Promise.all([
    db().entities.payout.query.primary({ organisation_id: organisationId }).go({ pages: "all" }),
    listGyms(organisationId),
  ]);
  const accounts = new Set(gyms.map((g) => g.stripe_id).filter(Boolean));
  const provider = simulatedStripePayouts()
    .filter(([account]) => accounts.has(account))
    .flatMap(([, payouts]) => payouts);
  const paidOut = new Set(provider.flatMap((p) => p.charges.map((c) => c.payment_intent)));
  const transit = simulatedSucceededIntents()
    .filter(([account]) => accounts.has(account))
    .flatMap(([, intents]) => intents)
    .filter((i) => !paidOut.has(i.id));
  const charges = provider.flatMap((p) => p.charges);
  return {
    payouts: data.length,
    gross: data.reduce((s, p) => s + p.gross, 0),
    fees: data.reduce((s, p) => s + p.fee, 0),
    paid_out: {
      payouts: provider.length,
      charges: charges.length,
      gross: charges.reduce((s, c) => s + c.amount, 0),
      fees: charges.reduce((s, c) => s + c.fee, 0),
    },
    in_transit: { charges: transit.length, gross: transit.reduce((s, i) => s + i.amount, 0) },
    mismatches: comparePayouts(
      data.map((p) => ({
        id: p.payout_id,
        charges: (p.lines as { provider_ref: string | null; amount: number; fee: number }[]).map((l) => ({
          ref: l.provider_ref,
          amount: l.amount,
          fee: l.fee,
        })),
      })),
      provider.map((p) => ({
        id: p.id,
        charges: p.charges.map((c) => ({ ref: c.payment_intent, amount: c.amount, fee: c.fee })),
      })),
    ),
    problems: data.flatMap((p) =>
      payoutProblems(p as Parameters<typeof payoutProblems>[0]).map((x) => `${p.payout_id}: ${x}`),
    ),
  };
}
