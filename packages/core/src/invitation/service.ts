/**
 * Enrolment needs the person (docs/access-control.md "Enrolment needs the person"). Staff who add
 * someone who already has an account, as staff or as a pay-in-full member, send an invitation;
 * the organisation gets the role (and the membership, its payment and its tax invoice) only when
 * the person accepts from the emailed link. Declined, cancelled or expired: nothing is left.
 */
import type { EntityItem } from "electrodb";
import { createLink, INVITE_LIFETIME_SECONDS } from "../auth/links";
import { epochSeconds, tokenHash } from "../auth/tokens";
import { db } from "../db/service";
import { sendEmail } from "../email/port";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { getGym } from "../gym/service";
import { getOrganisation } from "../organisation/service";
import { checkPifOffer, completePifOnboarding } from "../pif/service";
import { saveProfile } from "../user/profile";
import { putRole, roleIn } from "../user/roles";
import { invitationEmail } from "./emails";
import type { invitationEntity } from "./entity";

export type InvitationRecord = EntityItem<typeof invitationEntity>;

export const invitationMessages = {
  waiting: "An invitation to this address is already waiting for an answer.",
  dead: "This invitation has expired, was answered already or was withdrawn. Ask the gym to send a new one.",
} as const;

const live = (record: InvitationRecord | null | undefined, now = epochSeconds()) =>
  record && record.expires_at > now ? record : null;

export async function findInvitation(organisationId: string, userId: string) {
  const { data } = await db()
    .entities.invitation.get({ organisation_id: organisationId, user_id: userId })
    .go();
  return live(data);
}

/** The organisation's staff invitations still waiting (tens at most). */
export async function staffInvitations(organisationId: string) {
  const { data } = await db()
    .entities.invitation.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  const now = epochSeconds();
  return data.filter((record) => record.kind === "staff" && record.expires_at > now);
}

type NewInvitation = Omit<InvitationRecord, "invited_at" | "expires_at">;

/**
 * Writes the invitation, conditional on there being none alive for this person here (of two
 * parallel invites one wins; the other is told one is waiting), then emails its link.
 */
export async function invite(input: NewInvitation) {
  const record = await claimInvitation(input);
  await sendInvitationEmail(record);
  return record;
}

/** The invitation's conditional write alone (a new account's invitation emails its own link). */
export async function claimInvitation(input: NewInvitation) {
  const now = epochSeconds();
  const record = {
    ...input,
    invited_at: new Date().toISOString(),
    expires_at: now + INVITE_LIFETIME_SECONDS,
  };
  try {
    await db()
      .entities.invitation.put(record)
      .where((attr, op) => `${op.notExists(attr.user_id)} OR ${op.lte(attr.expires_at, now)}`)
      .go();
  } catch (error) {
    if ((error as { cause?: { name?: string } })?.cause?.name === "ConditionalCheckFailedException")
      throw new ConflictError(invitationMessages.waiting, "invitation_waiting");
    throw error;
  }
  return record;
}

/** A new link for a waiting invitation (the staff page's "Resend invitation"). */
export async function sendInvitationEmail(record: InvitationRecord) {
  const token = await createLink({
    purpose: "invitation",
    user_id: record.user_id,
    organisation_id: record.organisation_id,
  });
  await sendEmail(invitationEmail(record, await offerOf(record), token));
}

/** What the invitation offers, in words (the email and the answer page say the same). */
async function offerOf(record: InvitationRecord) {
  const organisation = await getOrganisation(record.organisation_id);
  if (record.kind === "staff") {
    const role =
      record.org_role === "admin"
        ? "an organisation admin"
        : record.gym_roles?.every((g: { role: string }) => g.role === "personal_trainer")
          ? "a personal trainer"
          : "a gym admin";
    return {
      organisation: organisation.name,
      brand: organisation.name,
      what: `join ${organisation.name} as ${role}`,
    };
  }
  const gym = await getGym(record.organisation_id, record.gym_id ?? "");
  return {
    organisation: organisation.name,
    brand: gym.name,
    gymUuid: gym.uuid,
    what: `become a member of ${gym.name} with a pay-in-full membership (paid at the desk)`,
  };
}

/** The invitation a link names, when it can still be answered. */
async function fromToken(token: string) {
  const { data: link } = await db()
    .entities.link.get({ token_hash: tokenHash(token) })
    .go();
  if (
    link?.purpose !== "invitation" ||
    link.used_at ||
    link.expires_at <= epochSeconds() ||
    !link.organisation_id
  )
    return null;
  const record = await findInvitation(link.organisation_id, link.user_id);
  return record ? { link, record } : null;
}

/** `GET /api/invitations?token=`: what the page shows before the person answers. */
export async function peekInvitation(token: string) {
  const found = await fromToken(token);
  if (!found) return { valid: false as const };
  const offer = await offerOf(found.record);
  return {
    valid: true as const,
    kind: found.record.kind,
    organisation: offer.organisation,
    gym: offer.brand,
    gym_uuid: offer.gymUuid ?? null,
    offer: `You're invited to ${offer.what}.`,
    email: found.record.email,
  };
}

async function useLink(tokenHashValue: string) {
  await db()
    .entities.link.patch({ token_hash: tokenHashValue })
    .set({ used_at: new Date().toISOString() })
    .where(({ used_at }, { notExists }) => notExists(used_at))
    .go()
    .catch(() => {
      throw ValidationError.field("token", invitationMessages.dead);
    });
}

async function removeInvitation(record: InvitationRecord) {
  await db()
    .entities.invitation.delete({ organisation_id: record.organisation_id, user_id: record.user_id })
    .where((attr, op) => op.eq(attr.invited_at, record.invited_at))
    .go()
    .catch(() => undefined);
}

/**
 * `POST /api/invitations/accept {token}`: the person takes the role (merged with any member place
 * they hold there) or the pay-in-full membership (then recorded as paid at the desk, with its tax
 * invoice). The link is used up first, so a replay does nothing.
 */
export async function acceptInvitation(token: string) {
  const found = await fromToken(token);
  if (!found) throw ValidationError.field("token", invitationMessages.dead);
  const { link, record } = found;
  // Everything that can refuse runs before the first write.
  if (record.kind === "pif")
    await checkPifOffer(record as { organisation_id: string; user_id: string; price_id: string });
  await useLink(link.token_hash);
  await removeInvitation(record);
  const existing = await roleIn(record.organisation_id, record.user_id);
  if (record.kind === "staff") {
    await putRole({
      organisation_id: record.organisation_id,
      user_id: record.user_id,
      org_role: record.org_role ?? "none",
      gym_roles: record.gym_roles ?? [],
      member_gym_ids: existing?.member_gym_ids ?? [],
    });
    await db()
      .entities.role.patch({ organisation_id: record.organisation_id, user_id: record.user_id })
      .set({ invited_at: record.invited_at })
      .remove(["deleted_at"])
      .go();
  } else {
    await putRole({
      organisation_id: record.organisation_id,
      user_id: record.user_id,
      org_role: existing?.org_role,
      gym_roles: existing?.gym_roles,
      member_gym_ids: [...new Set([...(existing?.member_gym_ids ?? []), record.gym_id ?? ""])].filter(
        Boolean,
      ),
    });
    if (record.mobile_number)
      await saveProfile(record.organisation_id, record.user_id, { mobile_number: record.mobile_number });
    await completePifOnboarding({
      organisation_id: record.organisation_id,
      user_id: record.user_id,
      gym_id: record.gym_id ?? "",
      price_id: record.price_id ?? "",
      payment_method: record.payment_method ?? "",
      processed_by: record.invited_by,
    });
  }
  const offer = await offerOf(record).catch(() => null);
  return { kind: record.kind, organisation: offer?.organisation ?? "", gym: offer?.brand ?? "" };
}

/** `POST /api/invitations/decline {token}`: nothing of it is kept. */
export async function declineInvitation(token: string) {
  const found = await fromToken(token);
  if (!found) throw ValidationError.field("token", invitationMessages.dead);
  await useLink(found.link.token_hash);
  await removeInvitation(found.record);
  return { declined: true as const };
}

/** Staff withdraw a waiting invitation (the staff page's remove on a pending row). */
export async function withdrawInvitation(organisationId: string, userId: string) {
  const record = await findInvitation(organisationId, userId);
  if (!record) throw new NotFoundError("invitation");
  await removeInvitation(record);
  return record;
}
