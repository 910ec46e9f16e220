import { config } from "../config";
import type { Email } from "../email/port";

/** The texts of the sign-in emails. Plain and short: they are read on phones. */
export function codeEmail(to: string, name: string, code: string): Email {
  return {
    to,
    subject: `${code} is your sign-in code`,
    text: `Hi ${name},\n\nYour code is ${code}. It expires in 10 minutes and works once.\n\nIf you did not try to sign in, change your password.`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>Your code is <strong style="font-size:20px;letter-spacing:3px">${code}</strong>.</p><p>It expires in 10 minutes and works once.</p><p>If you did not try to sign in, change your password.</p>`,
  };
}

export function resetEmail(to: string, name: string, token: string): Email {
  const link = `${config.staffUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: "Reset your password",
    text: `Hi ${name},\n\nReset your password here (the link works once, for 60 minutes):\n${link}\n\nIf you did not ask for this, ignore this email.`,
    html: `<p>Hi ${escapeHtml(name)},</p><p><a href="${link}">Reset your password</a>. The link works once, for 60 minutes.</p><p>If you did not ask for this, ignore this email.</p>`,
  };
}

export function inviteEmail(to: string, name: string, organisation: string, token: string): Email {
  const link = `${config.staffUrl}/set-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `You're invited to ${organisation}`,
    text: `Hi ${name},\n\nYou've been invited to ${organisation}. Set your password here (the link works once, for 7 days):\n${link}`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>You've been invited to ${escapeHtml(organisation)}. <a href="${link}">Set your password</a> (the link works once, for 7 days).</p>`,
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
