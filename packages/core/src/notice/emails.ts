/** The notices members get before a charge (docs/communications.md). */
import { formatCents } from "../billing/money";
import { config } from "../config";
import { emailDate, titleCase } from "../email/format";
import { type Block, type Brand, compose } from "../email/message";
import type { Email } from "../email/port";
import { unsubscribePageUrl, unsubscribePostUrl } from "./unsubscribe-token";

const unsubscribeFor = (userId: string) => ({
  page: unsubscribePageUrl(userId),
  post: unsubscribePostUrl(userId),
});

/**
 * The reminder before a charge. `required` when the amount differs from the last charge or the
 * charge follows a pause (notice of a change in a direct debit's amount or date): then it is sent
 * whatever the member's preferences and carries no unsubscribe; otherwise it is optional.
 */
export function paymentReminderEmail(input: {
  to: string;
  user_id: string;
  name: string;
  brand: Brand;
  due_on: string;
  amount: number;
  surcharge: number;
  method: string;
  why: "changed" | "after_pause" | null;
  last_total: number | null;
}): Email {
  const total = input.amount + input.surcharge;
  const why: Block[] =
    input.why === "changed" && input.last_total !== null
      ? [{ p: [`This is different from your last payment of ${formatCents(input.last_total)}.`] }]
      : input.why === "after_pause"
        ? [{ p: ["This is your first payment after your pause."] }]
        : [];
  return compose({
    to: input.to,
    subject: `Your ${input.brand.name} payment of ${formatCents(total)} is on ${emailDate(input.due_on)}`,
    brand: input.brand,
    kind: input.why ? "required" : "optional",
    ...(input.why ? {} : { unsubscribe: unsubscribeFor(input.user_id) }),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          `Your next ${input.brand.name} payment of `,
          { strong: formatCents(total) },
          ` will be taken ${input.method} on ${emailDate(input.due_on)}.`,
        ],
      },
      ...(input.surcharge
        ? [
            {
              rows: [
                { label: "Membership", value: formatCents(input.amount) },
                { label: "Card surcharge", value: formatCents(input.surcharge) },
                { label: "Total", value: formatCents(total), total: true },
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
