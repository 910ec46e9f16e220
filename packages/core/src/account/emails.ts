import { config } from "../config";
import { compose } from "../email/message";
import type { Email } from "../email/port";

/** Emails about the account itself are not any one gym's: signed by the platform. */
const platform = { name: "Gym platform" };

export function confirmNewEmail(to: string, name: string, token: string): Email {
  const link = `${config.staffUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  return compose({
    to,
    subject: "Confirm your new login email",
    brand: platform,
    blocks: [
      { p: [`Hi ${name},`] },
      { p: [`Confirm that you want to sign in with ${to} from now on (the link works once, for 24 hours):`] },
      { button: { href: link, label: "Confirm my new email" } },
      { p: ["If you did not ask for this, ignore this email: nothing changes."] },
    ],
  });
}

export function emailChangedEmail(
  to: string,
  name: string,
  now: string,
  undoToken: string,
  undoSeconds: number,
): Email {
  const link = `${config.staffUrl}/undo-email?token=${encodeURIComponent(undoToken)}`;
  const days = Math.round(undoSeconds / 86_400);
  return compose({
    to,
    subject: "Your login email was changed",
    brand: platform,
    blocks: [
      { p: [`Hi ${name},`] },
      { p: [`Your login email was changed to ${now}. From now on you sign in with that address.`] },
      {
        p: [
          `If this wasn't you, undo it here within ${days} days: your address comes back, everyone signed in to your account is signed out, and we send you a link to set a new password.`,
        ],
      },
      { button: { href: link, label: "Undo this change" } },
    ],
  });
}
