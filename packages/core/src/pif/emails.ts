import { escapeHtml } from "../auth/emails";
import { config } from "../config";
import type { Email } from "../email/port";

/**
 * The link a pay-in-full member gets to finish registering: they set a password (the same
 * single-use, 7-day invitation link staff get), then sign in; no recurring payment method is asked.
 */
export function pifInviteEmail(to: string, name: string, gym: string, token: string): Email {
  const link = `${config.staffUrl}/set-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `Finish joining ${gym}`,
    text: `Hi ${name},\n\nYour pay-in-full membership at ${gym} is set up. Set your password here to finish joining (the link works once, for 7 days):\n${link}`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>Your pay-in-full membership at ${escapeHtml(gym)} is set up. <a href="${link}">Set your password</a> to finish joining (the link works once, for 7 days).</p>`,
  };
}
