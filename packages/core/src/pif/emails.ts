import { joinPage } from "../auth/emails";
import { type Brand, compose } from "../email/message";
import type { Email } from "../email/port";

/**
 * The link a pay-in-full member gets to finish registering: they set a password (the same
 * single-use, 7-day invitation link staff get), then sign in; no recurring payment method is asked.
 */
export function pifInviteEmail(
  to: string,
  name: string,
  gym: string | Brand,
  token: string,
  gymUuid: string | null = null,
): Email {
  const brand = typeof gym === "string" ? { name: gym } : gym;
  // The join site's page (members' words, the gym's branding), not the staff site's.
  const link = joinPage("/set-password", token, gymUuid ? { uuid: gymUuid, brand } : null);
  return compose({
    to,
    subject: `Finish joining ${brand.name}`,
    brand,
    blocks: [
      { p: [`Hi ${name},`] },
      {
        p: [
          `Your pay-in-full membership at ${brand.name} is set up. Set your password here to finish joining (the link works once, for 7 days):`,
        ],
      },
      { button: { href: link, label: "Set your password" } },
    ],
  });
}
