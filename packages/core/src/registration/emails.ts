/**
 * The emails a new member gets once subscribed: the welcome (the gym, the membership, the first
 * payment and its date) and, when they pay by bank, the advance notice of the first direct debit.
 */
import { lastDayOf } from "../billing/calendar";
import { formatCents } from "../billing/index";
import { emailDate, titleCase } from "../email/format";
import { type Brand, compose } from "../email/message";
import { type Email, sendEmail } from "../email/port";
import { brandOfGym } from "../gym/email-brand";
import type { Subscribed } from "../subscription/confirm";

export function welcomeEmail(input: {
  to: string;
  name: string;
  brand: Brand;
  membership: string;
  start_date: string;
  first: { total: number; due_on: string } | null;
  /** The trial taken (docs/offers.md "Trials"): its last day, and what it costs all-in. */
  trial?: { last_day: string; total: number } | null;
}): Email {
  const gym = input.brand.name;
  const trial = input.trial;
  return compose({
    to: input.to,
    subject: `Welcome to ${gym}`,
    brand: input.brand,
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          `Welcome to ${gym}! Your membership: `,
          { strong: input.membership },
          `, starting ${emailDate(input.start_date)}.`,
        ],
      },
      {
        p: [
          trial
            ? `Your trial runs until ${emailDate(trial.last_day)}${
                trial.total > 0 ? ` and costs ${formatCents(trial.total)}` : ", free"
              }. We will email you 3 days before it ends with what your membership then costs, and how to stop at no cost.`
            : input.first
              ? `Your first payment of ${formatCents(input.first.total)} is on ${emailDate(input.first.due_on)}.`
              : "Your first payment date will follow.",
        ],
      },
      { p: ["See you at the gym."] },
    ],
  });
}

/** The advance notice of the first direct debit (bank account members). */
export function firstDebitEmail(input: {
  to: string;
  name: string;
  brand: Brand;
  total: number;
  due_on: string;
  amount: number;
}): Email {
  const gym = input.brand.name;
  return compose({
    to: input.to,
    subject: `Notice of your first direct debit: ${formatCents(input.total)} on ${emailDate(input.due_on)}`,
    brand: input.brand,
    blocks: [
      { p: [`Hi ${titleCase(input.name)},`] },
      {
        p: [
          `We will debit ${formatCents(input.total)} from your bank account on ${emailDate(input.due_on)} for your ${gym} membership, under the direct debit authority you gave when you joined. Then ${formatCents(input.amount)} each period.`,
        ],
      },
      { p: [`If anything is wrong, contact ${gym} before that date.`] },
    ],
  });
}

/** The welcome (and first debit notice) of a membership just confirmed, from what confirming made and read. */
export async function sendWelcomeEmails({ subscription: sub, first_payment: first, user, gym }: Subscribed) {
  // The gym as confirming read it: its brand (name, logo, reply-to) without a lookup.
  const brand: Brand = brandOfGym(gym);
  const total = first.amount + first.surcharge;
  await sendEmail(
    welcomeEmail({
      to: user.email,
      name: user.name,
      brand,
      membership: `${sub.offering_name ?? "Membership"} (${sub.price_label ?? ""})`,
      start_date: sub.start_date,
      first: { total, due_on: first.due_on },
      trial: sub.trial_ends_on ? { last_day: lastDayOf(sub.trial_ends_on), total } : null,
    }),
  );
  // A free trial debits nothing; the first paid debit is announced by the trial-ending email.
  if (sub.payment_method === "bank_account" && total > 0) {
    await sendEmail(
      firstDebitEmail({
        to: user.email,
        name: user.name,
        brand,
        total,
        due_on: first.due_on,
        amount: sub.amount,
      }),
    );
  }
}
