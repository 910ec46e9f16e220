/**
 * The person changes their own login email (docs/access-control.md "Whose account it is"):
 *  1. `POST /api/me/email {email, password}`: with their password, they ask; a link goes to the
 *     NEW address (confirming they own it), nothing changes yet.
 *  2. `POST /api/email-change/confirm {token}`: the address moves (one transaction with the
 *     `user_email` claims, user/login-email.ts); the OLD address is told, with a link to undo it
 *     for 7 days. Each organisation's copies of the address (members list, search) follow.
 *  3. `POST /api/email-change/undo {token}`: the old address comes back, every session ends and a
 *     password reset link goes to it (whoever changed it may know the password).
 * Staff never change a login email, but for the desk correction (user/desk-correction.ts).
 */
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { createLink, EMAIL_UNDO_LIFETIME_SECONDS, forgotPassword } from "../auth/links";
import { endUserSessions } from "../auth/session";
import { takeLimit } from "../auth/throttle";
import { epochSeconds, tokenHash } from "../auth/tokens";
import { verifyPassword } from "../crypto/password";
import { db } from "../db/service";
import { sendEmail } from "../email/port";
import { RateLimitedError, ValidationError } from "../errors";
import { indexMember } from "../member/search-index";
import { titleCase } from "../text";
import { EMAIL_TAKEN, moveLoginEmail } from "../user/login-email";
import { rolesOfUser } from "../user/roles";
import { findUserByEmail, getUser, normaliseEmail } from "../user/service";
import { messages, parse } from "../validation";
import { confirmNewEmail, emailChangedEmail } from "./emails";

export const emailChangeInput = z
  .object({
    email: z
      .string({ error: messages.required })
      .trim()
      .min(1, messages.required)
      .max(254)
      .pipe(z.email({ error: messages.email }))
      .transform((v) => v.toLowerCase()),
    password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
  })
  .meta({ id: "EmailChangeInput", example: { email: "new.address@example.com", password: "…" } });

export const emailChangeMessages = {
  password: "That password is not right.",
  same: "That is already your login email.",
  dead: "This link has expired or has already been used.",
  tooMany: "Too many email changes. Please try again tomorrow.",
} as const;

/** Requests per account per day: enough for typos, not for flooding someone's inbox. */
const CHANGES_PER_DAY = 5;

export async function requestEmailChange(actor: Actor, body: unknown) {
  const input = parse(emailChangeInput, body);
  const user = await getUser(actor.userId);
  if (!(await verifyPassword(user.password_hash, input.password)))
    throw ValidationError.field("password", emailChangeMessages.password);
  const email = normaliseEmail(input.email);
  if (email === user.email) throw ValidationError.field("email", emailChangeMessages.same);
  const limit = await takeLimit(`email-change:${user.user_id}`, {
    limit: CHANGES_PER_DAY,
    windowSeconds: 86_400,
  });
  if (!limit.ok) throw new RateLimitedError(emailChangeMessages.tooMany, limit.retryAfterSeconds);
  if (await findUserByEmail(email)) throw ValidationError.field("email", EMAIL_TAKEN);
  const token = await createLink({ purpose: "email_change", user_id: user.user_id, email });
  await sendEmail(confirmNewEmail(email, titleCase(user.name), token));
  return { sent_to: email };
}

async function useLink(token: string, purpose: "email_change" | "email_undo") {
  const { data: link } = await db()
    .entities.link.get({ token_hash: tokenHash(token) })
    .go();
  if (!link || link.purpose !== purpose || link.used_at || link.expires_at <= epochSeconds() || !link.email)
    throw ValidationError.field("token", emailChangeMessages.dead);
  await db()
    .entities.link.patch({ token_hash: link.token_hash })
    .set({ used_at: new Date().toISOString() })
    .where(({ used_at }, { notExists }) => notExists(used_at))
    .go()
    .catch(() => {
      throw ValidationError.field("token", emailChangeMessages.dead);
    });
  return { ...link, email: link.email };
}

/** Every organisation's copies of the address (members list, search) follow the account. */
async function reindex(userId: string, email: string) {
  const roles = await rolesOfUser(userId);
  await Promise.all(
    roles
      .filter((role) => role.member_gym_ids.length > 0)
      .map((role) => indexMember({ organisation_id: role.organisation_id, user_id: userId, email })),
  );
}

export async function confirmEmailChange(token: string) {
  const link = await useLink(token, "email_change");
  const user = await getUser(link.user_id);
  const old = user.email;
  try {
    await moveLoginEmail(user, link.email);
  } catch {
    throw ValidationError.field("token", EMAIL_TAKEN);
  }
  await reindex(user.user_id, link.email);
  const undo = await createLink({ purpose: "email_undo", user_id: user.user_id, email: old });
  await sendEmail(
    emailChangedEmail(old, titleCase(user.name), link.email, undo, EMAIL_UNDO_LIFETIME_SECONDS),
  );
  return { email: link.email };
}

export async function undoEmailChange(token: string) {
  const link = await useLink(token, "email_undo");
  const user = await getUser(link.user_id);
  try {
    await moveLoginEmail(user, link.email);
  } catch {
    throw ValidationError.field("token", EMAIL_TAKEN);
  }
  await reindex(user.user_id, link.email);
  await endUserSessions(user.user_id);
  await forgotPassword(link.email);
  return { email: link.email };
}
