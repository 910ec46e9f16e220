import { joinPage } from "../auth/emails";
import { config } from "../config";
import { compose } from "../email/message";
import type { Email } from "../email/port";
import { titleCase } from "../text";

/**
 * The invitation an existing account gets (docs/communications.md): who invites them to what, and
 * one link to a page where they accept or decline. Nothing happens until they answer.
 */
export function invitationEmail(
  invitation: { email: string; name: string; kind: "staff" | "pif" },
  offer: { organisation: string; brand: string; what: string; gymUuid?: string },
  token: string,
): Email {
  // A member's invitation opens on the join site in the gym's colours; staff's on the staff site.
  const link =
    invitation.kind === "pif"
      ? joinPage(
          "/invitation",
          token,
          offer.gymUuid ? { uuid: offer.gymUuid, brand: { name: offer.brand } } : null,
        )
      : `${config.staffUrl}/invitation?token=${encodeURIComponent(token)}`;
  return compose({
    to: invitation.email,
    subject: `${offer.brand} invites you`,
    brand: { name: offer.brand },
    blocks: [
      { p: [`Hi ${titleCase(invitation.name)},`] },
      { p: [`${offer.brand} asks you to ${offer.what}.`] },
      { p: ["Nothing changes until you answer. Accept or decline here (the link works once, for 7 days):"] },
      { button: { href: link, label: "See the invitation" } },
      { p: ["If you don't know this gym, decline, or ignore this email: the invitation lapses by itself."] },
    ],
  });
}
