import type { BankTransfer } from "@gym/core/contract/registration";
import { Text } from "@mantine/core";

/**
 * Where a pay-in-full bank transfer goes and the reference to write on it (the registration
 * state's `bank_transfer`, the same words as the invitation email), for the welcome and
 * membership pages' "awaiting your bank transfer" notes.
 */
export function BankTransferDetails({ transfer, gym }: { transfer: BankTransfer | null; gym: string }) {
  if (!transfer) return null;
  return (
    <Text component="span" display="block" mt={4}>
      {transfer.account_number
        ? `Pay it into ${transfer.account_name}, account ${transfer.account_number}, with the reference "${transfer.reference}".`
        : `Ask ${gym} for their bank account, and use the reference "${transfer.reference}".`}
    </Text>
  );
}
