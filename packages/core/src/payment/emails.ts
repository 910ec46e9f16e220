/** The money emails members receive. Plain and short: they are read on phones. */
import { formatCents } from "../billing/money";
import { config } from "../config";
import { emailDate, titleCase } from "../email/format";
import { type Brand, compose } from "../email/message";
import type { Email } from "../email/port";

const updateLink = () => `${config.joinUrl}/payment-method`;
const consentLink = () => `${config.joinUrl}/connect-akahu`;

/** The gym as the layout shows it: its name, and its logo and reply-to when the ids are given. */
interface GymOf {
  gym: string;
  gym_ref?: { organisation_id: string; gym_id: string };
}
const brandOf = (input: GymOf): Brand => ({
  name: input.gym,
  ...(input.gym_ref ? { ref: input.gym_ref } : {}),
});

export function paymentFailedEmail(
  input: GymOf & {
    to: string;
    name: string;
    amount: number;
    reason: string;
    hard: boolean;
    nextRetryOn: string | null;
    graceEndsAt: string | null;
  },
): Email {
  const amount = formatCents(input.amount);
  // The provider's reason is its own sentence ("Your card was declined."): a capital, one stop.
  const stripped = input.reason.trim().replace(/[.!]+$/, "");
  const reason = stripped.charAt(0).toUpperCase() + stripped.slice(1);
  const next = input.hard
    ? "We won't try this payment method again. Please add a new one so your membership continues."
    : input.nextRetryOn
      ? `We'll try again on ${emailDate(input.nextRetryOn)}.`
      : "We won't retry automatically again.";
  const grace = input.graceEndsAt
    ? `If it is still unpaid by ${emailDate(input.graceEndsAt)}, your membership will be cancelled.`
    : "";
  return compose({
    to: input.to,
    subject: `Your ${input.gym} payment of ${amount} didn't go through`,
    brand: brandOf(input),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      { p: [`Your ${input.gym} payment of `, { strong: amount }, ` didn't go through. ${reason}.`] },
      { p: [next] },
      { button: { href: updateLink(), label: "Update your payment method" } },
      ...(grace ? [{ p: [grace] }] : []),
    ],
  });
}

export function finalNoticeEmail(
  input: GymOf & { to: string; name: string; balance: number; graceEndsAt: string },
): Email {
  const amount = formatCents(input.balance);
  const when = emailDate(input.graceEndsAt);
  return compose({
    to: input.to,
    subject: `Final notice: ${amount} owing to ${input.gym}`,
    brand: brandOf(input),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          "You owe ",
          { strong: amount },
          ` to ${input.gym}. If it is not paid by ${when}, your membership will be cancelled and your door access stopped.`,
        ],
      },
      { button: { href: updateLink(), label: "Pay or update your payment method" } },
    ],
  });
}

export function cancelledForNonPaymentEmail(
  input: GymOf & { to: string; name: string; balance: number },
): Email {
  const amount = formatCents(input.balance);
  return compose({
    to: input.to,
    subject: `Your ${input.gym} membership has been cancelled`,
    brand: brandOf(input),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          `Your ${input.gym} membership has been cancelled because `,
          { strong: amount },
          " was still unpaid when the grace period ended. Your door access has stopped.",
        ],
      },
      { p: ["To rejoin, talk to the gym or ", { href: config.joinUrl, label: "sign up again" }, "."] },
    ],
  });
}

export function reconsentEmail(input: GymOf & { to: string; name: string; reason: string }): Email {
  return compose({
    to: input.to,
    subject: `Please reconnect your bank to keep paying ${input.gym}`,
    brand: brandOf(input),
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      { p: [`${input.reason} Your bank needs your OK again before we can take your next payment.`] },
      { button: { href: consentLink(), label: "Reconnect your bank (it takes a minute)" } },
      { p: ["Until then we won't take any payment from your bank account."] },
    ],
  });
}
