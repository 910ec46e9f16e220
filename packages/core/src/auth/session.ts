import { db } from "../db/service";
import { isStaffRole, rolesOfUser } from "../user/roles";
import { epochSeconds, newToken, tokenHash } from "./tokens";

/**
 * Session lifetimes. Staff work in the back-office all day, so a session survives a working
 * day of inactivity (idle 12 hours) but never more than 7 days in all; a session still waiting
 * for its emailed code lives only 15 minutes.
 */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
export const SESSION_ABSOLUTE_SECONDS = 7 * 24 * 60 * 60;
export const PENDING_SESSION_SECONDS = 15 * 60;
/** Sliding expiry is written at most this often, to keep reads cheap. */
const TOUCH_EVERY_SECONDS = 5 * 60;

/**
 * The user id of a decoy pending session (login.ts: a guarded account's answer to a wrong
 * password). No user has such an id, so nothing is ever found or passed for it.
 */
export const DECOY_USER_PREFIX = "decoy:";
export const isDecoyUser = (userId: string) => userId.startsWith(DECOY_USER_PREFIX);

export type Session = NonNullable<Awaited<ReturnType<typeof readSession>>>;

/**
 * A cookie token names the session's user and the organisation it starts in beside its secret
 * (`<user>.<organisation>.<secret>`), so a call can read the user's role and the organisation's
 * gyms in the same round as the session (signed-in.ts). The session is stored under the hash of the
 * whole token, so a token with other names in it finds no session; the names only choose what is
 * read beside it, and the session read decides (docs/access-control.md "Sessions").
 */
function tokenFor(userId: string, organisationId: string | undefined) {
  return `${userId}.${organisationId ?? ""}.${newToken()}`;
}

/** The user and organisation a cookie token names (not yet checked: the session read checks them). */
export function tokenNames(token: string | undefined) {
  const [userId, organisationId, secret] = token?.split(".") ?? [];
  if (!secret || !userId) return null;
  return { userId, organisationId: organisationId || null };
}

/** Longer than any token this app hands out (two ids and a 43-character secret). */
const TOKEN_MAX_LENGTH = 200;

/** The session to create and its cookie token (only its hash is stored): createSession, or a caller's own transaction (register). */
export function newSession(input: {
  user_id: string;
  two_factor_passed: boolean;
  ip?: string;
  user_agent?: string;
  /** The organisation and gym the session starts in (registration names them at once). */
  current_organisation_id?: string;
  current_gym_id?: string;
}) {
  const token = tokenFor(input.user_id, input.current_organisation_id);
  const now = epochSeconds();
  const absolute = now + SESSION_ABSOLUTE_SECONDS;
  const record = {
    session_id: tokenHash(token),
    user_id: input.user_id,
    two_factor_passed: input.two_factor_passed,
    created_at: new Date().toISOString(),
    last_seen_at: new Date().toISOString(),
    absolute_expires_at: absolute,
    expires_at: now + (input.two_factor_passed ? SESSION_IDLE_SECONDS : PENDING_SESSION_SECONDS),
    ip: input.ip,
    user_agent: input.user_agent?.slice(0, 300),
    current_organisation_id: input.current_organisation_id,
    current_gym_id: input.current_gym_id,
  };
  return { token, record };
}

/** Creates a session and returns the cookie token (only its hash is stored). */
export async function createSession(input: Parameters<typeof newSession>[0]) {
  const { token, record } = newSession(input);
  const { data } = await db().entities.session.create(record).go();
  return { token, session: data };
}

async function readSession(sessionId: string) {
  const { data } = await db().entities.session.get({ session_id: sessionId }).go();
  return data;
}

/** The key a cookie token's session is stored under, or null for a token this app never hands out. */
export function sessionKey(token: string | undefined) {
  if (!token || token.length > TOKEN_MAX_LENGTH) return null;
  return { session_id: tokenHash(token) };
}

/** The live session for a cookie token, or null (unknown, idle too long, or past its absolute end). */
export async function sessionForToken(token: string | undefined) {
  const key = sessionKey(token);
  return key ? liveSession(await readSession(key.session_id)) : null;
}

/**
 * The session as read, if it is still live (null when unknown, idle too long, or past its absolute
 * end); its idle expiry slides forward, written at most every few minutes.
 */
export async function liveSession(session: Session | null | undefined) {
  const now = epochSeconds();
  if (!session || session.expires_at <= now || session.absolute_expires_at <= now) return null;
  if (session.two_factor_passed && Date.parse(session.last_seen_at) / 1000 + TOUCH_EVERY_SECONDS < now) {
    const expires = Math.min(now + SESSION_IDLE_SECONDS, session.absolute_expires_at);
    await db()
      .entities.session.patch({ session_id: session.session_id })
      .set({ last_seen_at: new Date().toISOString(), expires_at: expires })
      .go();
    session.expires_at = expires;
  }
  return session;
}

/**
 * Passing the emailed code replaces the session: a new token (the one the password step handed
 * out, which a fixated or leaked cookie could carry, stops working) for a session that keeps the
 * pending one's absolute end; the pending session is deleted. Returns the new cookie token.
 */
export async function passTwoFactor(
  pending: Session,
  /** The user's roles, when the caller read them already (`completeSignIn` reads them beside the code). */
  rolesRead?: ReturnType<typeof rolesOfUser>,
) {
  const now = epochSeconds();
  // A session is pinned to an organisation from its start (the staff one first, as the actor
  // would choose), so a role another organisation gives later never moves it
  // (docs/access-control.md "An organisation's acts stay in the organisation").
  let organisationId = pending.current_organisation_id;
  if (!organisationId) {
    const roles = await (rolesRead ?? rolesOfUser(pending.user_id));
    organisationId = (roles.find((role) => isStaffRole(role)) ?? roles[0])?.organisation_id;
  }
  const token = tokenFor(pending.user_id, organisationId);
  await db()
    .entities.session.create({
      session_id: tokenHash(token),
      user_id: pending.user_id,
      two_factor_passed: true,
      current_organisation_id: organisationId,
      current_gym_id: organisationId === pending.current_organisation_id ? pending.current_gym_id : undefined,
      created_at: new Date().toISOString(),
      last_seen_at: new Date().toISOString(),
      absolute_expires_at: pending.absolute_expires_at,
      expires_at: Math.min(now + SESSION_IDLE_SECONDS, pending.absolute_expires_at),
      ip: pending.ip,
      user_agent: pending.user_agent,
    })
    .go();
  await endSession(pending.session_id);
  return token;
}

export async function setSessionContext(
  sessionId: string,
  context: { current_organisation_id?: string; current_gym_id?: string },
) {
  await db().entities.session.patch({ session_id: sessionId }).set(context).go();
}

export async function endSession(sessionId: string) {
  await db().entities.session.delete({ session_id: sessionId }).go();
}

/** Ends every session of a user (password changed or reset), optionally keeping one. */
export async function endUserSessions(userId: string, keepSessionId?: string) {
  const { data } = await db().entities.session.query.byUser({ user_id: userId }).go({ pages: "all" });
  const doomed = data.filter((session) => session.session_id !== keepSessionId);
  if (doomed.length) {
    await db()
      .entities.session.delete(doomed.map(({ session_id }) => ({ session_id })))
      .go();
  }
}
