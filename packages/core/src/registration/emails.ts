/**
 * The emails a new member gets once subscribed: the welcome (the gym, the membership, the first
 * payment and its date) and, when they pay by bank, the advance notice of the first direct debit.
 */
import { escapeHtml } from "../auth/emails";
import { formatCents } from "../billing/index";
import { sendEmail } from "../email/port";
import { getGym } from "../gym/service";
import { findPayment } from "../payment/store";
import { activeSubscriptionOf } from "../subscription/service";
import { nzDate, titleCase } from "../text";
import { getUser } from "../user/service";

export async function sendWelcomeEmails(organisationId: string, userId: string) {
  const sub = await activeSubscriptionOf(organisationId, userId);
  if (!sub) return;
  const first = sub.first_payment_id ? await findPayment(organisationId, sub.first_payment_id) : null;
  const [user, gym] = await Promise.all([getUser(userId), getGym(organisationId, sub.gym_id)]);
  const name = titleCase(user.name);
  const total = first ? first.amount + first.surcharge : null;
  const firstLine =
    first && total !== null
      ? `Your first payment of ${formatCents(total)} is on ${nzDate(first.due_on)}.`
      : "Your first payment date will follow.";
  const membership = `${sub.offering_name ?? "Membership"} (${sub.price_label ?? ""})`;
  await sendEmail({
    to: user.email,
    subject: `Welcome to ${gym.name}`,
    text: `Hi ${name},\n\nWelcome to ${gym.name}! Your membership: ${membership}, starting ${nzDate(sub.start_date)}.\n${firstLine}\n\nSee you at the gym.`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>Welcome to ${escapeHtml(gym.name)}! Your membership: <strong>${escapeHtml(membership)}</strong>, starting ${nzDate(sub.start_date)}.</p><p>${escapeHtml(firstLine)}</p><p>See you at the gym.</p>`,
  });
  if (sub.payment_method === "bank_account" && first && total !== null) {
    const notice = `We will debit ${formatCents(total)} from your bank account on ${nzDate(first.due_on)} for your ${gym.name} membership, under the direct debit authority you gave when you joined. Then ${formatCents(sub.amount)} each period.`;
    await sendEmail({
      to: user.email,
      subject: `Notice of your first direct debit: ${formatCents(total)} on ${nzDate(first.due_on)}`,
      text: `Hi ${name},\n\n${notice}\n\nIf anything is wrong, contact ${gym.name} before that date.`,
      html: `<p>Hi ${escapeHtml(name)},</p><p>${escapeHtml(notice)}</p><p>If anything is wrong, contact ${escapeHtml(gym.name)} before that date.</p>`,
    });
  }
}
