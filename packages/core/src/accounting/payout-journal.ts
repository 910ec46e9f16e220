/**
 * A payout's journal (docs/accounting.md "Payouts"): the deposit that reached the gym's bank and the
 * provider's fees, debited, against the clearing account the payments were debited to when they
 * settled, credited with what the payout cleared (deposit + fees). Pure; cents, positive debit,
 * negative credit; always balanced. In Xero the bank feed's line is coded with these lines.
 */
import type { CivilDate } from "../billing/calendar";
import type { AccountingMapping } from "../contract/accounting";
import { nzDate } from "../text";
import type { JournalLine } from "./journal";

export type PayoutProvider = "stripe" | "akahu";

export const payoutDescriptions = {
  deposit: (provider: PayoutProvider, ref: string) =>
    provider === "stripe" ? `Deposit: Stripe payout ${ref}` : "Deposit: bank account payments (Akahu)",
  fees: "Stripe fees",
  cleared: (provider: PayoutProvider) =>
    provider === "stripe" ? "Paid out: card payments (Stripe)" : "Paid out: bank account payments (Akahu)",
} as const;

export function payoutJournal(input: {
  provider: PayoutProvider;
  /** Stripe's payout id (`po_…`); unused for Akahu. */
  ref: string;
  arrival_date: CivilDate;
  gym_name: string;
  amount: number;
  fee: number;
  mapping: Pick<
    AccountingMapping,
    | "bank_account"
    | "fees_account"
    | "fees_tax_rate"
    | "no_gst_tax_rate"
    | "stripe_clearing_account"
    | "akahu_clearing_account"
  >;
}): { narration: string; date: CivilDate; lines: JournalLine[] } {
  const { mapping, provider } = input;
  const what = provider === "stripe" ? `Stripe payout ${input.ref}` : "Akahu bank payments";
  const lines: JournalLine[] = [
    {
      description: payoutDescriptions.deposit(provider, input.ref),
      account: mapping.bank_account,
      tax_rate: mapping.no_gst_tax_rate,
      amount: input.amount,
    },
    {
      description: payoutDescriptions.fees,
      account: mapping.fees_account,
      tax_rate: mapping.fees_tax_rate,
      amount: input.fee,
    },
    {
      description: payoutDescriptions.cleared(provider),
      account: provider === "stripe" ? mapping.stripe_clearing_account : mapping.akahu_clearing_account,
      tax_rate: mapping.no_gst_tax_rate,
      amount: -(input.amount + input.fee),
    },
  ];
  return {
    narration: `${input.gym_name}: ${what} ${nzDate(input.arrival_date)}`,
    date: input.arrival_date,
    lines: lines.filter((l) => l.amount !== 0),
  };
}
