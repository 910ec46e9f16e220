/**
 * The email that confirms a cancellation to the member, whether they cancelled on `/membership`
 * or staff did at the desk (cancel.ts): the last day, any break fee, and how to undo it while
 * that is possible (docs/communications.md, docs/billing.md "Cancellation, cooling-off, terms").
 */
import { type CivilDate, lastDayOf } from "../../billing/calendar";
import { formatBasisPoints, formatCents } from "../../billing/money";
import type { MoneyQuote } from "../../contract/quote";
import { emailDate, firstName } from "../../email/format";
import { compose } from "../../email/message";
import type { Email } from "../../email/port";

export function cancellationEmail(input: {
  member_name: string;
  member_email: string;
  gym_name: string;
  gym_ref: { organisation_id: string; gym_id: string };
  today: CivilDate;
  /** The first day without the membership (`cancellation_effective_at`). */
  effective: CivilDate;
  /** Undo is possible before this day (`undo_cancellation_until`). */
  undo_until: CivilDate;
  in_cooling_off: boolean;
  /** The break fee as it will be charged (payment/quote.ts), the one the dialogs confirmed; null: none. */
  break_fee: MoneyQuote | null;
  break_fee_basis_points: number;
  remaining_term_value: number;
}): Email {
  const gym = input.gym_name;
  const ended = input.effective <= input.today;
  const charge = input.break_fee;
  const fee = charge
    ? `A break fee of ${charge.formatted_total} is due today: ${charge.formatted_amount}${
        charge.surcharge > 0 ? ` plus a ${charge.formatted_surcharge} card surcharge` : ""
      }${charge.credit_applied > 0 ? `, less ${charge.formatted_credit_applied} of your credit` : ""}. The fee is ${formatBasisPoints(
        input.break_fee_basis_points,
      )} of the ${formatCents(input.remaining_term_value)} left on your term. ${
        charge.total > 0
          ? `We take ${charge.formatted_total} from ${charge.payment_method.label}.`
          : "Your credit pays it: nothing more is taken."
      }`
    : input.in_cooling_off
      ? "There is no break fee: you cancelled inside your cooling-off period."
      : "There is no fee to pay.";
  return compose({
    to: input.member_email,
    subject: `Your ${gym} membership is cancelled`,
    brand: { name: gym, ref: input.gym_ref },
    blocks: [
      { p: [`Kia ora ${firstName(input.member_name)},`] },
      {
        p: ended
          ? [`Your ${gym} membership is cancelled and ended today, `, { strong: emailDate(input.today) }, "."]
          : [
              `Your ${gym} membership is cancelled. Your last day as a member is `,
              { strong: emailDate(lastDayOf(input.effective)) },
              ". You can keep coming in until then.",
            ],
      },
      { p: [fee] },
      ...(input.undo_until > input.today
        ? [
            {
              p: [
                `Changed your mind? Ask ${gym} before ${emailDate(input.undo_until)} and they can undo the cancellation${
                  charge ? " (a break fee not yet taken is withdrawn)" : ""
                }: your membership then carries on as before.`,
              ],
            },
          ]
        : []),
    ],
  });
}

/**
 * The email that tells the member a cancellation was undone (staff undo it before it takes effect,
 * undo-cancellation.ts): the membership goes on, a break fee not yet taken is withdrawn, and the next
 * payment as the quote says it (tour: a member told "cancelled" then heard nothing more).
 */
export function cancellationUndoneEmail(input: {
  member_name: string;
  member_email: string;
  gym_name: string;
  gym_ref: { organisation_id: string; gym_id: string };
  break_fee_withdrawn: boolean;
  /** The quote of the next money event after the undo (payment/quote.ts); null: nothing due. */
  next: MoneyQuote | null;
}): Email {
  const gym = input.gym_name;
  return compose({
    to: input.member_email,
    subject: `Your ${gym} membership continues`,
    brand: { name: gym, ref: input.gym_ref },
    blocks: [
      { p: [`Kia ora ${firstName(input.member_name)},`] },
      { p: [`Your cancellation has been undone: your ${gym} membership continues as before.`] },
      ...(input.break_fee_withdrawn ? [{ p: ["The break fee is withdrawn: it will not be charged."] }] : []),
      ...(input.next ? [{ p: [`Your next payment is ${input.next.summary}.`] }] : []),
    ],
  });
}
