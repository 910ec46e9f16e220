import { joinPage } from "../auth/emails";
import type { MoneyQuote } from "../contract/quote";
import { type Block, type Brand, compose } from "../email/message";
import type { Email } from "../email/port";
import { bankTransferOf, type TransferAccount } from "./transfer";

/**
 * A pay-in-full transfer not yet received (the subscription's quote, kind `awaiting_transfer`):
 * how much is awaited, where to pay it, with which reference, and what happens when it arrives.
 */
function transferBlocks(
  quote: MoneyQuote,
  name: string,
  gym: string,
  account: TransferAccount | null,
): Block[] {
  const to = bankTransferOf(name, account);
  return [
    { p: [`We are waiting for your bank transfer of ${quote.formatted_total}.`] },
    {
      p: [
        to.account_number
          ? `Please pay it into ${to.account_name}, account ${to.account_number}, with the reference "${to.reference}".`
          : `Please ask ${gym} for their bank account, and use the reference "${to.reference}".`,
      ],
    },
    { p: [`${gym} confirms your payment when it arrives, and your door access starts then.`] },
  ];
}

/**
 * The link a pay-in-full member gets to finish registering: they set a password (the same
 * single-use, 7-day invitation link staff get), then sign in; no recurring payment method is asked.
 * Paid by a bank transfer not yet received (`transfer`), it also says that the transfer is awaited,
 * its amount (from the subscription's quote, payment/quote.ts) and how to pay it.
 */
export function pifInviteEmail(
  to: string,
  name: string,
  gym: string | Brand,
  token: string,
  gymUuid: string | null = null,
  transfer: { quote: MoneyQuote; account: TransferAccount | null } | null = null,
): Email {
  const brand = typeof gym === "string" ? { name: gym } : gym;
  // The join site's page (members' words, the gym's branding), not the staff site's.
  const link = joinPage("/set-password", token, gymUuid ? { uuid: gymUuid, brand } : null);
  return compose({
    to,
    subject: `Finish joining ${brand.name}`,
    brand,
    blocks: [
      { p: [`Hi ${name},`] },
      {
        p: [
          `Your pay-in-full membership at ${brand.name} is set up. Set your password here to finish joining (the link works once, for 7 days):`,
        ],
      },
      { button: { href: link, label: "Set your password" } },
      ...(transfer?.quote.kind === "awaiting_transfer"
        ? transferBlocks(transfer.quote, name, brand.name, transfer.account)
        : []),
    ],
  });
}
