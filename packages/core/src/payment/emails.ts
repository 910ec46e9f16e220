/** The money emails members receive. Plain and short: they are read on phones. */

import { escapeHtml } from "../auth/emails";
import { aucklandDate, type CivilDate } from "../billing/calendar";
import { formatCents } from "../billing/money";
import { config } from "../config";
import type { Email } from "../email/port";
import { titleCase } from "../text";

const updateLink = () => `${config.joinUrl}/payment-method`;
const consentLink = () => `${config.joinUrl}/connect-akahu`;

function enNz(date: CivilDate): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-NZ", {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  });
}

function html(paragraphs: string[]): string {
  return paragraphs.map((p) => `<p>${p}</p>`).join("");
}

export function paymentFailedEmail(input: {
  to: string;
  name: string;
  gym: string;
  amount: number;
  reason: string;
  hard: boolean;
  nextRetryOn: CivilDate | null;
  graceEndsAt: string | null;
}): Email {
  const amount = formatCents(input.amount);
  // A provider's reason may end in its own full stop ("Your card was declined."): one stop, not two.
  const reason = input.reason.trim().replace(/[.!]+$/, "");
  const next = input.hard
    ? "We won't try this payment method again. Please add a new one so your membership continues."
    : input.nextRetryOn
      ? `We'll try again on ${enNz(input.nextRetryOn)}.`
      : "We won't retry automatically again.";
  const grace = input.graceEndsAt
    ? `If it is still unpaid by ${enNz(aucklandDate(new Date(input.graceEndsAt)))}, your membership will be cancelled.`
    : "";
  const text = [
    `Hi ${titleCase(input.name)},`,
    `Your ${input.gym} payment of ${amount} didn't go through: ${reason}.`,
    next,
    `Update your payment method here: ${updateLink()}`,
    grace,
  ]
    .filter(Boolean)
    .join("\n\n");
  return {
    to: input.to,
    subject: `Your ${input.gym} payment of ${amount} didn't go through`,
    text,
    html: html([
      `Hi ${escapeHtml(titleCase(input.name))},`,
      `Your ${escapeHtml(input.gym)} payment of <strong>${amount}</strong> didn't go through: ${escapeHtml(reason)}.`,
      escapeHtml(next),
      `<a href="${updateLink()}">Update your payment method</a>`,
      escapeHtml(grace),
    ]),
  };
}

export function finalNoticeEmail(input: {
  to: string;
  name: string;
  gym: string;
  balance: number;
  graceEndsAt: string;
}): Email {
  const amount = formatCents(input.balance);
  const when = enNz(aucklandDate(new Date(input.graceEndsAt)));
  return {
    to: input.to,
    subject: `Final notice: ${amount} owing to ${input.gym}`,
    text: `Hi ${titleCase(input.name)},\n\nYou owe ${amount} to ${input.gym}. If it is not paid by ${when}, your membership will be cancelled and your door access stopped.\n\nPay or update your payment method here: ${updateLink()}`,
    html: html([
      `Hi ${escapeHtml(titleCase(input.name))},`,
      `You owe <strong>${amount}</strong> to ${escapeHtml(input.gym)}. If it is not paid by ${when}, your membership will be cancelled and your door access stopped.`,
      `<a href="${updateLink()}">Pay or update your payment method</a>`,
    ]),
  };
}

export function cancelledForNonPaymentEmail(input: {
  to: string;
  name: string;
  gym: string;
  balance: number;
}): Email {
  const amount = formatCents(input.balance);
  return {
    to: input.to,
    subject: `Your ${input.gym} membership has been cancelled`,
    text: `Hi ${titleCase(input.name)},\n\nYour ${input.gym} membership has been cancelled because ${amount} was still unpaid when the grace period ended. Your door access has stopped.\n\nTo rejoin, talk to the gym or sign up again at ${config.joinUrl}.`,
    html: html([
      `Hi ${escapeHtml(titleCase(input.name))},`,
      `Your ${escapeHtml(input.gym)} membership has been cancelled because <strong>${amount}</strong> was still unpaid when the grace period ended. Your door access has stopped.`,
      `To rejoin, talk to the gym or <a href="${config.joinUrl}">sign up again</a>.`,
    ]),
  };
}

export function reconsentEmail(input: { to: string; name: string; gym: string; reason: string }): Email {
  return {
    to: input.to,
    subject: `Please reconnect your bank to keep paying ${input.gym}`,
    text: `Hi ${titleCase(input.name)},\n\n${input.reason} Your bank needs your OK again before we can take your next payment. It takes a minute: ${consentLink()}\n\nUntil then we won't take any payment from your bank account.`,
    html: html([
      `Hi ${escapeHtml(titleCase(input.name))},`,
      `${escapeHtml(input.reason)} Your bank needs your OK again before we can take your next payment.`,
      `<a href="${consentLink()}">Reconnect your bank</a> (it takes a minute). Until then we won't take any payment from your bank account.`,
    ]),
  };
}
