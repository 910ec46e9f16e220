/**
 * The email that confirms a cancellation to the member, whether they cancelled on `/membership`
 * or staff did at the desk (cancel.ts): the last day, any break fee, and how to undo it while
 * that is possible (docs/communications.md, docs/billing.md "Cancellation, cooling-off, terms").
 */
import { addDays, type CivilDate } from "../../billing/calendar";
import { formatBasisPoints, formatCents } from "../../billing/money";
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
  break_fee: number;
  break_fee_basis_points: number;
  remaining_term_value: number;
}): Email {
  const gym = input.gym_name;
  const ended = input.effective <= input.today;
  const fee =
    input.break_fee > 0
      ? `A break fee of ${formatCents(input.break_fee)} is due today: ${formatBasisPoints(
          input.break_fee_basis_points,
        )} of the ${formatCents(input.remaining_term_value)} left on your term. We take it the way you pay for your membership.`
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
              { strong: emailDate(addDays(input.effective, -1)) },
              ". You can keep coming in until then.",
            ],
      },
      { p: [fee] },
      ...(input.undo_until > input.today
        ? [
            {
              p: [
                `Changed your mind? Ask ${gym} before ${emailDate(input.undo_until)} and they can undo the cancellation${
                  input.break_fee > 0 ? " (a break fee not yet taken is withdrawn)" : ""
                }: your membership then carries on as before.`,
              ],
            },
          ]
        : []),
    ],
  });
}
