/**
 * The day's manual journals (docs/accounting.md "The journals"): pure, from the payments settled
 * that Auckland day at one gym. One journal per way the money arrived (card through Stripe, bank
 * account through Akahu, cash or EFTPOS at the desk, bank transfer), each debiting that clearing
 * account with what was collected and crediting income (GST-inclusive, at the mapped tax rate),
 * joining fees, break fees and card surcharges apart; credit taken and used moves through the
 * credit (liability) account. Amounts are integer cents, positive debit, negative credit; every
 * journal sums to zero (checked here: an unbalanced journal is a bug, never a file).
 */
import type { CivilDate } from "../billing/calendar";
import type { AccountingMapping } from "../contract/accounting";
import { nzDate } from "../text";

/** How the money arrived: the journal's clearing account. */
export const journalKinds = ["card", "bank", "desk", "transfer"] as const;
export type JournalKind = (typeof journalKinds)[number];

const kindLabels: Record<JournalKind, string> = {
  card: "card payments (Stripe)",
  bank: "bank account payments (Akahu)",
  desk: "cash and EFTPOS at the desk",
  transfer: "bank transfers",
};

export interface JournalLine {
  description: string;
  account: string;
  tax_rate: string;
  /** Cents: positive debit, negative credit. */
  amount: number;
}

export interface Journal {
  date: CivilDate;
  gym_id: string;
  kind: JournalKind;
  narration: string;
  tracking_name: string;
  tracking_option: string;
  lines: JournalLine[];
}

/** What a journal needs of a settled payment (a PaymentRecord has all of it). */
export interface SettledPayment {
  payment_id: string;
  gym_id: string;
  subscription_id?: string;
  status: string;
  type: "stripe_card" | "bank_account" | "pif";
  amount: number;
  surcharge: number;
  joining_fee: number;
  credit_used: number;
  meta?: unknown;
  pif_payment?: { payment_method: "eftpos" | "cash" | "bank_transfer" };
}

export function kindOf(payment: Pick<SettledPayment, "type" | "pif_payment">): JournalKind {
  if (payment.type === "stripe_card") return "card";
  if (payment.type === "bank_account") return "bank";
  return payment.pif_payment?.payment_method === "bank_transfer" ? "transfer" : "desk";
}

export function clearingAccount(mapping: AccountingMapping, kind: JournalKind): string {
  return {
    card: mapping.stripe_clearing_account,
    bank: mapping.akahu_clearing_account,
    desk: mapping.desk_clearing_account,
    transfer: mapping.transfer_clearing_account,
  }[kind];
}

/** The descriptions of the lines, one set (docs/accounting.md "The lines"). */
export const lineDescriptions = {
  collected: (kind: JournalKind) => `Collected: ${kindLabels[kind]}`,
  memberships: "Memberships",
  joining: "Joining fees",
  breakFees: "Break fees",
  surcharges: "Card surcharges",
  owing: "Balances owing paid at the desk",
  creditTaken: "Member credit taken",
  creditUsed: "Member credit used",
  fromCredit: "Memberships paid from credit",
} as const;

type Kind = { kind?: string; credit?: number };

/** One payment's lines, before the day's lines with the same account, rate and words are added up. */
export function paymentLines(
  payment: SettledPayment,
  mapping: AccountingMapping,
  offeringOf: (subscriptionId: string | undefined) => string | undefined,
): JournalLine[] {
  const journalKind = kindOf(payment);
  const offering = offeringOf(payment.subscription_id);
  const own = offering ? mapping.offerings.find((o) => o.offering_id === offering) : undefined;
  const income = {
    account: own?.account ?? mapping.income_account,
    tax_rate: own?.tax_rate ?? mapping.income_tax_rate,
  };
  const incomeRate = mapping.income_tax_rate;
  const meta = (payment.meta ?? {}) as Kind;
  const lines: JournalLine[] = [
    {
      description: lineDescriptions.collected(journalKind),
      account: clearingAccount(mapping, journalKind),
      tax_rate: mapping.no_gst_tax_rate,
      amount: payment.amount + payment.surcharge,
    },
  ];
  const credit = (description: string, account: string, tax_rate: string, cents: number) =>
    lines.push({ description, account, tax_rate, amount: -cents });
  if (meta.kind === "manual") {
    const taken = Math.min(Math.max(meta.credit ?? 0, 0), payment.amount);
    credit(lineDescriptions.owing, income.account, income.tax_rate, payment.amount - taken);
    credit(lineDescriptions.creditTaken, mapping.credit_account, incomeRate, taken);
  } else if (meta.kind === "break_fee") {
    credit(lineDescriptions.breakFees, mapping.break_fee_account, incomeRate, payment.amount);
  } else {
    credit(
      lineDescriptions.memberships,
      income.account,
      income.tax_rate,
      payment.amount - payment.joining_fee,
    );
    credit(lineDescriptions.joining, mapping.joining_fee_account, incomeRate, payment.joining_fee);
  }
  credit(lineDescriptions.surcharges, mapping.surcharge_account, incomeRate, payment.surcharge);
  if (payment.credit_used > 0) {
    lines.push({
      description: lineDescriptions.creditUsed,
      account: mapping.credit_account,
      tax_rate: incomeRate,
      amount: payment.credit_used,
    });
    credit(lineDescriptions.fromCredit, income.account, income.tax_rate, payment.credit_used);
  }
  return lines.filter((line) => line.amount !== 0);
}

export class UnbalancedJournalError extends Error {}

/** The sum of a journal's lines: zero for every journal this file makes. */
export const journalSum = (journal: Pick<Journal, "lines">) =>
  journal.lines.reduce((s, l) => s + l.amount, 0);

/**
 * A gym's journals of one day from the payments settled that day (sent; any other status posts
 * nothing): one per kind, lines with the same description, account and rate added up, debits first.
 */
export function dayJournals(input: {
  date: CivilDate;
  gym: { gym_id: string; name: string };
  payments: readonly SettledPayment[];
  mapping: AccountingMapping;
  offeringOf?: (subscriptionId: string | undefined) => string | undefined;
}): Journal[] {
  const { mapping } = input;
  const trackingName = mapping.tracking_name ?? "";
  const trackingOption = trackingName
    ? (mapping.gyms.find((g) => g.gym_id === input.gym.gym_id)?.tracking_option ?? input.gym.name)
    : "";
  const journals: Journal[] = [];
  for (const kind of journalKinds) {
    const sums = new Map<string, JournalLine>();
    for (const payment of input.payments) {
      if (payment.status !== "sent" || payment.gym_id !== input.gym.gym_id || kindOf(payment) !== kind)
        continue;
      for (const line of paymentLines(payment, mapping, input.offeringOf ?? (() => undefined))) {
        const key = JSON.stringify([line.amount > 0, line.description, line.account, line.tax_rate]);
        const sum = sums.get(key);
        if (sum) sum.amount += line.amount;
        else sums.set(key, { ...line });
      }
    }
    const lines = [...sums.values()]
      .filter((line) => line.amount !== 0)
      .sort((a, b) => Number(b.amount > 0) - Number(a.amount > 0));
    if (!lines.length) continue;
    const journal: Journal = {
      date: input.date,
      gym_id: input.gym.gym_id,
      kind,
      narration: `${input.gym.name}: ${kindLabels[kind]} ${nzDate(input.date)}`,
      tracking_name: trackingName,
      tracking_option: trackingOption ?? "",
      lines,
    };
    if (journalSum(journal) !== 0) {
      throw new UnbalancedJournalError(`journal ${journal.narration} is off by ${journalSum(journal)} cents`);
    }
    journals.push(journal);
  }
  return journals;
}
