/** The email a member gets when staff schedule a price change for them (change-price.ts). */
import type { CivilDate } from "../../billing/calendar";
import { frequencyLabel } from "../../billing/frequency";
import { formatCents } from "../../billing/money";
import { emailDate, firstName } from "../../email/format";
import { compose } from "../../email/message";
import type { Email } from "../../email/port";
import { membershipName } from "../../text";

export function priceChangeEmail(input: {
  member_name: string;
  member_email: string;
  gym_name: string;
  gym_ref?: { organisation_id: string; gym_id: string };
  /** The offering the member is on now, and the one the new price belongs to. */
  offering_name: string;
  to_offering_name: string;
  billing_frequency: string;
  from_amount: number;
  to_amount: number;
  /** The price's label now and after (what changes besides the amount), and the membership's term. */
  from_label?: string | null;
  to_label?: string | null;
  term?: string | null;
  effective: CivilDate;
  reply_to: string | null;
}): Email {
  const first = firstName(input.member_name);
  const per = frequencyLabel[input.billing_frequency as keyof typeof frequencyLabel].toLowerCase();
  const direction = input.to_amount < input.from_amount ? "going down" : "changing";
  const from = emailDate(input.effective);
  return compose({
    to: input.member_email,
    reply_to: input.reply_to,
    subject: `Your ${input.gym_name} membership price is ${direction}`,
    brand: {
      name: input.gym_name,
      reply_to: input.reply_to,
      ...(input.gym_ref ? { ref: input.gym_ref } : {}),
    },
    blocks: [
      { p: [`Kia ora ${first},`] },
      {
        p: [
          input.to_offering_name === input.offering_name
            ? `From ${from}, your ${membershipName(input.offering_name)} at ${input.gym_name} will be ${formatCents(
                input.to_amount,
              )} (${per}) instead of ${formatCents(input.from_amount)}.`
            : `From ${from}, your membership at ${input.gym_name} moves from ${input.offering_name} to ${
                input.to_offering_name
              }, at ${formatCents(input.to_amount)} (${per}) instead of ${formatCents(input.from_amount)}.`,
        ],
      },
      ...(input.to_label && input.from_label && input.to_label !== input.from_label
        ? [{ p: [`Your membership will read “${input.to_label}” (now “${input.from_label}”).`] }]
        : []),
      {
        p: [
          // Onto another offering the membership changes too (hand tour: Anytime to Off-Peak read
          // "Only the amount changes"); the term and break fee are the same either way.
          input.to_offering_name === input.offering_name
            ? input.term
              ? `Only the amount changes: your ${input.term}, its end date and its break fee stay as they are.`
              : "Only the amount changes: your membership stays without a term, so there is no fixed period and no break fee."
            : `The amount and the membership change: what ${input.to_offering_name} includes may differ from ${input.offering_name}; ${
                input.term
                  ? `your ${input.term}, its end date and its break fee stay as they are.`
                  : "it stays without a term, so there is no fixed period and no break fee."
              }`,
        ],
      },
      {
        p: [
          "Your first payment at the new price is the one due on or after that date. You do not need to do anything.",
        ],
      },
      {
        p: [
          input.reply_to
            ? `Questions? Reply to this email and it will reach ${input.gym_name} (${input.reply_to}).`
            : `Questions? Talk to the team at ${input.gym_name}.`,
        ],
      },
    ],
  });
}
