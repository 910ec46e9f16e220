/** The notices members get before a charge (docs/communications.md). */
import { formatCents } from "../billing/money";
import { config } from "../config";
import type { MoneyQuote } from "../contract/quote";
import { emailDate, titleCase } from "../email/format";
import { type Block, type Brand, compose } from "../email/message";
import type { Email } from "../email/port";
import { unsubscribePageUrl, unsubscribePostUrl } from "./unsubscribe-token";

const unsubscribeFor = (userId: string) => ({
  page: unsubscribePageUrl(userId),
  post: unsubscribePostUrl(userId),
});

/**
 * The reminder before a charge, from the quote of that charge (payment/quote.ts): the amount, any
 * credit taken off, the card surcharge and the total, as the member's page shows them. `required`
 * when the amount differs from the last charge, the charge follows a pause, or it replaces an
 * earlier reminder whose amount has changed since (notice of a change in a direct debit's amount
 * or date): then it is sent whatever the member's preferences and carries no unsubscribe;
 * otherwise it is optional.
 */
export function paymentReminderEmail(input: {
  to: string;
  user_id: string;
  name: string;
  brand: Brand;
  quote: MoneyQuote;
  due_on: string;
  method: string;
  why: "changed" | "after_pause" | null;
  last_total: number | null;
  /** The total of the earlier reminder of this payment, when this one replaces it. */
  replaces: number | null;
}): Email {
  const { quote } = input;
  const why: Block[] =
    input.replaces !== null
      ? [
          {
            p: [
              `This replaces our earlier reminder of ${formatCents(input.replaces)}: the amount has changed${
                quote.credit_applied > 0 ? " (your credit is taken off it)" : ""
              }.`,
            ],
          },
        ]
      : input.why === "changed" && input.last_total !== null
        ? [{ p: [`This is different from your last payment of ${formatCents(input.last_total)}.`] }]
        : input.why === "after_pause"
          ? [{ p: ["This is your first payment after your pause."] }]
          : [];
  const required = input.why !== null || input.replaces !== null;
  return compose({
    to: input.to,
    subject: `Your ${input.brand.name} payment of ${quote.formatted_total} is on ${emailDate(input.due_on)}`,
    brand: input.brand,
    kind: required ? "required" : "optional",
    ...(required ? {} : { unsubscribe: unsubscribeFor(input.user_id) }),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          `Your next ${input.brand.name} payment of `,
          { strong: quote.formatted_total },
          ` will be taken ${input.method} on ${emailDate(input.due_on)}.`,
        ],
      },
      ...(quote.surcharge || quote.credit_applied
        ? [
            {
              rows: [
                { label: "Membership", value: quote.formatted_amount },
                ...(quote.credit_applied
                  ? [{ label: "Credit applied", value: formatCents(-quote.credit_applied) }]
                  : []),
                ...(quote.surcharge ? [{ label: "Card surcharge", value: quote.formatted_surcharge }] : []),
                { label: "Total", value: quote.formatted_total, total: true },
              ],
            },
          ]
        : []),
      ...why,
      { p: ["You do not need to do anything. To change how you pay before then:"] },
      { button: { href: `${config.joinUrl}/payment-method`, label: "Update your payment method" } },
    ],
  });
}

/** The card on file expires before the next charge (14 and 3 days before it). */
export function cardExpiryEmail(input: {
  to: string;
  user_id: string;
  name: string;
  brand: Brand;
  due_on: string;
  card: string;
  expires: string;
}): Email {
  return compose({
    to: input.to,
    subject: `Your card expires before your next ${input.brand.name} payment`,
    brand: input.brand,
    kind: "optional",
    unsubscribe: unsubscribeFor(input.user_id),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          `The ${input.card} you pay ${input.brand.name} with expires at the end of ${input.expires}, before your next payment on ${emailDate(input.due_on)}.`,
        ],
      },
      { p: ["Add your new card so your membership carries on without a missed payment."] },
      { button: { href: `${config.joinUrl}/payment-method`, label: "Update your payment method" } },
    ],
  });
}

/**
 * The trial ends soon (docs/offers.md "Before the trial ends"): 3 days before the first paid charge,
 * its amount (the quote of that charge, all-in) and date, and the way to stop at no cost. Always
 * sent (a member is never charged after a trial without being told), so it carries no unsubscribe.
 */
export function trialEndingEmail(input: {
  to: string;
  name: string;
  brand: Brand;
  quote: MoneyQuote;
  /** The trial's last day and the day of the first paid charge (the day after it). */
  last_day: string;
  due_on: string;
  method: string;
}): Email {
  const { quote } = input;
  return compose({
    to: input.to,
    subject: `Your ${input.brand.name} trial ends on ${emailDate(input.last_day)}`,
    brand: input.brand,
    kind: "required",
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      { p: [`Your ${input.brand.name} trial ends on ${emailDate(input.last_day)}.`] },
      {
        p: [
          "If you stay, your membership carries on and ",
          { strong: quote.formatted_total },
          ` will be taken ${input.method} on ${emailDate(input.due_on)}.`,
        ],
      },
      { p: ["To stop, tap the button before then: you pay nothing more and need not call the gym."] },
      { button: { href: `${config.joinUrl}/membership`, label: "Stop my trial" } },
    ],
  });
}
