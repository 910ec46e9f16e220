/**
 * Where a pay-in-full bank transfer goes and how the member marks it as theirs: the gym's
 * destination account and a reference made from their name. The invitation email (pif/emails.ts)
 * and the join site's welcome and membership pages (registration state's `bank_transfer`) say it
 * from here, so they never disagree.
 */
import type { BankTransfer } from "../contract/registration";
import { titleCase } from "../text";

/** The gym's account a transfer is paid into, when it has one. */
export interface TransferAccount {
  name: string;
  bank_account_number: string;
}

/**
 * The reference a member writes on their transfer so staff can tell it is theirs: their name (as
 * the gym's emails write it) as a New Zealand bank reference takes it (letters, digits, spaces and
 * hyphens, at most 12 characters).
 */
export function transferReference(name: string): string {
  return titleCase(name)
    .replace(/[^A-Za-z0-9 -]+/g, "")
    .trim()
    .slice(0, 12)
    .trim();
}

/** The account and reference of a member's awaited transfer (no account: they ask the gym). */
export function bankTransferOf(name: string, account: TransferAccount | null | undefined): BankTransfer {
  return {
    account_name: account?.name ?? null,
    account_number: account?.bank_account_number ?? null,
    reference: transferReference(name),
  };
}
