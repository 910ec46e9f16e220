import { z } from "zod";
import type { LinkCheck } from "../contract/auth";
import { hashPassword } from "../crypto/password";
import { db } from "../db/service";
import { sendEmail } from "../email/port";
import { ValidationError } from "../errors";
import { brandOfGym } from "../gym/email-brand";
import type { GymRecord } from "../gym/service";
import { log } from "../log";
import { titleCase } from "../text";
import { findUserByEmail, getUserOrNull } from "../user/service";
import { messages } from "../validation";
import { type LinkedGym, resetEmail } from "./emails";
import { newPassword } from "./password-policy";
import { endUserSessions } from "./session";
import { takeLimit } from "./throttle";
import { epochSeconds, newToken, tokenHash } from "./tokens";

export const RESET_LIFETIME_SECONDS = 60 * 60;
export const INVITE_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/** A new login email is confirmed from that address within a day; the old address may undo for 7 days. */
export const EMAIL_CHANGE_LIFETIME_SECONDS = 24 * 60 * 60;
export const EMAIL_UNDO_LIFETIME_SECONDS = INVITE_LIFETIME_SECONDS;
/** Reset emails per address per hour: stops a stranger from flooding someone's inbox. */
const RESETS_PER_HOUR = 3;

export const forgotPasswordInput = z.object({
  email: z.string({ error: messages.required }).trim().min(1, messages.required).max(254).toLowerCase(),
  /** Asked on the join site: the link opens the join site's page (default: the staff site's). */
  site: z.enum(["staff", "join"]).optional(),
  /** The gym the join site showed (its uuid): the email and the page keep its branding. */
  gym: z.uuid().optional(),
});

export const tokenInput = z.object({
  token: z.string({ error: messages.required }).min(1, messages.required).max(200),
});

export const resetPasswordInput = tokenInput
  .extend({
    password: newPassword,
    password_confirmation: z.string({ error: messages.required }),
  })
  .refine((input) => input.password === input.password_confirmation, {
    path: ["password_confirmation"],
    message: messages.equal,
  });

/** Creates a single-use link token and returns it (only its hash is stored). */
export async function createLink(input: {
  purpose: "reset" | "invite" | "invitation" | "email_change" | "email_undo";
  user_id: string;
  organisation_id?: string;
  /** email_change: the new address; email_undo: the old one. */
  email?: string;
}) {
  const token = newToken();
  const lifetime =
    input.purpose === "reset"
      ? RESET_LIFETIME_SECONDS
      : input.purpose === "email_change"
        ? EMAIL_CHANGE_LIFETIME_SECONDS
        : INVITE_LIFETIME_SECONDS;
  await db()
    .entities.link.create({
      token_hash: tokenHash(token),
      purpose: input.purpose,
      user_id: input.user_id,
      organisation_id: input.organisation_id,
      email: input.email,
      created_at: new Date().toISOString(),
      expires_at: epochSeconds() + lifetime,
    })
    .go();
  return token;
}

/** Forgot-password answers no sooner than this after it was asked (tests shorten it). */
const forgotPasswordAnswerMs = () => Number(process.env.FORGOT_PASSWORD_ANSWER_MS ?? 600);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a reset link when the account exists (at most three an hour, counted atomically);
 * answers the same either way, and in the same time: the work is padded to a fixed duration so
 * the answer's timing does not tell a known account from an unknown one.
 */
export async function forgotPassword(email: string, from: { site?: "staff" | "join"; gym?: string } = {}) {
  const started = performance.now();
  try {
    const user = await findUserByEmail(email);
    if (!user) return;
    const taken = await takeLimit(`reset:${user.user_id}`, { limit: RESETS_PER_HOUR, windowSeconds: 3600 });
    if (!taken.ok) return;
    const token = await createLink({ purpose: "reset", user_id: user.user_id });
    const join = from.site === "join" ? { gym: from.gym ? await linkedGym(from.gym) : null } : null;
    await sendEmail(resetEmail(user.email, titleCase(user.name), token, join));
  } finally {
    const spent = performance.now() - started;
    const target = forgotPasswordAnswerMs();
    if (spent < target) await sleep(target - spent);
    else log.info("forgot_password_slow", { ms: Math.round(spent), target_ms: target });
  }
}

/** The gym a join-site page named by its uuid (null: none such). */
async function linkedGym(uuid: string): Promise<LinkedGym | null> {
  const { data } = await db().entities.gym.query.byUuid({ uuid }).go({ limit: 1 });
  return data[0] ? { uuid, brand: brandOfGym(data[0] as GymRecord) } : null;
}

/**
 * A link that can still be used: unused, unexpired, and made after the user last set a password
 * (setting a password ends every reset and invitation link that was outstanding then).
 */
async function liveLink(token: string) {
  const { data } = await db()
    .entities.link.get({ token_hash: tokenHash(token) })
    .go();
  // Only reset and new-account invitation links set a password; other links do their one thing.
  if (!data || data.used_at || data.expires_at <= epochSeconds()) return null;
  const purpose = data.purpose;
  if (purpose !== "reset" && purpose !== "invite") return null;
  const user = await getUserOrNull(data.user_id);
  if (!user) return null;
  if (user.password_changed_at && Date.parse(data.created_at) <= Date.parse(user.password_changed_at))
    return null;
  return { link: { ...data, purpose }, user };
}

/** Whether a reset or invitation link can still be used (the page asks before showing its form). */
export async function validateLink(token: string): Promise<LinkCheck> {
  const live = await liveLink(token);
  if (!live) return { valid: false };
  const { link, user } = live;
  return { valid: true, purpose: link.purpose, email: user.email, name: titleCase(user.name) };
}

const deadLink = () =>
  new ValidationError({ token: ["This link has expired or has already been used. Ask for a new one."] });

/**
 * Sets a new password from a reset or invitation link. The link is used up atomically (a
 * replayed link fails), every other outstanding link of the user dies with the new
 * `password_changed_at`, and every session of the user ends.
 */
export async function resetPassword(input: z.infer<typeof resetPasswordInput>) {
  const live = await liveLink(input.token);
  if (!live) throw deadLink();
  const { link } = live;
  const usedAt = new Date().toISOString();
  await db()
    .entities.link.patch({ token_hash: link.token_hash })
    .set({ used_at: usedAt })
    .where(({ used_at }, { notExists }) => notExists(used_at))
    .go()
    .catch(() => {
      throw deadLink();
    });
  await db()
    .entities.user.patch({ user_id: link.user_id })
    .set({
      password_hash: await hashPassword(input.password),
      password_changed_at: usedAt,
      email_verified_at: usedAt,
    })
    .go();
  await endUserSessions(link.user_id);
  const user = await getUserOrNull(link.user_id);
  return { email: user?.email ?? "", purpose: link.purpose };
}
