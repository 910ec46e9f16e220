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

/** The run's Stripe payouts (each recorded from its `payout.paid`), added up, and those that do not add up. */
export async function simulatedPayouts(organisationId: string) {
  const [{ db }, { payoutProblems }] = await Promise.all([
    import("../../packages/core/src/db/service"),
    import("../../packages/core/src/accounting/payouts"),
  ]);
  const { data } = await db()
    .entities.payout.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  return {
    payouts: data.length,
    gross: data.reduce((s, p) => s + p.gross, 0),
    fees: data.reduce((s, p) => s + p.fee, 0),
    problems: data.flatMap((p) =>
      payoutProblems(p as Parameters<typeof payoutProblems>[0]).map((x) => `${p.payout_id}: ${x}`),
    ),
  };
}
