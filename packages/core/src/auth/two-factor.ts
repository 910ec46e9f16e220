import { db } from "../db/service";
import { sendEmail } from "../email/port";
import { RateLimitedError, ValidationError } from "../errors";
import { brandOfGym, gymBrand } from "../gym/email-brand";
import type { GymRecord } from "../gym/service";
import { titleCase } from "../text";
import { isStaffRole, rolesOfUser } from "../user/roles";
import { getUser, markEmailVerified } from "../user/service";
import { codeEmail, joinCodeEmail, memberCodeEmail } from "./emails";
import { isDecoyUser, passTwoFactor, type Session } from "./session";
import { type LimitTaken, takeLimit } from "./throttle";
import { codeHash, epochSeconds, newSixDigitCode, sameHash } from "./tokens";

export const CODE_LIFETIME_SECONDS = 10 * 60;
export const CODE_MAX_ATTEMPTS = 5;
/** Resend: at most one code every 30 seconds, and 5 an hour. */
export const RESEND_GAP_SECONDS = 30;
export const CODES_PER_HOUR = 5;

const codeLimitKey = (userId: string) => `codes:${userId}`;
const resendGapKey = (userId: string) => `codes-gap:${userId}`;
/** Guesses are counted per code (a fresh code starts afresh). */
const guessKey = (userId: string, hash: string) => `code-guesses:${userId}:${hash.slice(0, 16)}`;

/**
 * Emails a fresh code, replacing any earlier one. Every code counts against the hourly limit;
 * a resend also needs the 30-second gap since the last code (each code starts that gap). Both
 * are counted atomically before anything is sent.
 */
export async function issueCode(
  userId: string,
  options: {
    resend?: boolean;
    /**
     * The gym the session is at: someone still joining it (address not confirmed) gets its email.
     * The whole record when the caller has read it (its brand is then not read again).
     */
    gym?: { organisation_id: string; gym_id: string } | GymRecord | null;
    /** The user as the caller just read or wrote them (saves reading them again). */
    user?: Awaited<ReturnType<typeof getUser>>;
  } = {},
) {
  const decoy = isDecoyUser(userId);
  const [user] = await Promise.all([
    decoy ? null : options.user?.user_id === userId ? options.user : getUser(userId),
    takeCodeLimits(userId, options.resend),
  ]);
  // A decoy session (login.ts) is answered like a real one, and sent nothing.
  if (!user) return;
  const code = newSixDigitCode();
  const sessionGym = options.gym ?? null;
  // Someone still joining is emailed as a joiner whatever their roles: no need to read them.
  const joining = !user.email_verified_at && sessionGym !== null;
  const [roles] = await Promise.all([
    joining ? [] : rolesOfUser(userId),
    db().entities.code.put(codeRecord(userId, code)).go(),
  ]);
  await sendEmail(await codeEmailFor(user, code, roles, sessionGym));
}

/**
 * The first code of a user the caller creates in its own transaction (register): the record to
 * write in that transaction, the limits (taken beside it: a new user has none used, but the code
 * still counts), and its email, to send once both are done. A joiner's email: no roles to read.
 */
export function firstCode(user: { user_id: string; email: string; name: string }, gym: GymRecord) {
  const code = newSixDigitCode();
  return {
    record: codeRecord(user.user_id, code),
    limits: () => takeCodeLimits(user.user_id, false),
    send: async () => sendEmail(await codeEmailFor(user, code, [], gym)),
  };
}

/** A code as stored: its hash only, the tries counted from zero, ten minutes to live. */
function codeRecord(userId: string, code: string) {
  return {
    user_id: userId,
    purpose: "two_factor" as const,
    code_hash: codeHash(userId, code),
    attempts: 0,
    sent_at: new Date().toISOString(),
    expires_at: epochSeconds() + CODE_LIFETIME_SECONDS,
  };
}

/**
 * Every code counts against the hourly limit and starts the 30-second gap; a resend inside the
 * gap is refused. The gap first, then the hour, each counted atomically before anything is sent.
 */
async function takeCodeLimits(userId: string, resend: boolean | undefined) {
  const gap = await takeLimit(resendGapKey(userId), { limit: 1, windowSeconds: RESEND_GAP_SECONDS });
  if (resend && !gap.ok) {
    throw new RateLimitedError(
      "A code was sent moments ago. Please wait 30 seconds before asking for another.",
      gap.retryAfterSeconds,
    );
  }
  const hourly = await takeLimit(codeLimitKey(userId), { limit: CODES_PER_HOUR, windowSeconds: 3600 });
  if (!hourly.ok) {
    throw new RateLimitedError(
      "Too many codes requested. Please wait an hour and try again.",
      hourly.retryAfterSeconds,
    );
  }
}

/**
 * Whose email the code is: someone still joining a gym (address not confirmed) gets the gym's
 * joining words; a member (no staff place in any organisation) their gym's sign-in email, the
 * session's gym or else the gym of their first membership; staff the platform's.
 */
async function codeEmailFor(
  user: { email: string; name: string; email_verified_at?: string | null },
  code: string,
  roles: Awaited<ReturnType<typeof rolesOfUser>>,
  sessionGym: { organisation_id: string; gym_id: string } | GymRecord | null,
) {
  const name = titleCase(user.name);
  // A gym record in hand gives its brand without a read.
  const brandOf = async (ref: { organisation_id: string; gym_id: string }) =>
    ref === sessionGym && "name" in sessionGym ? brandOfGym(sessionGym) : gymBrand(ref);
  const joining = !user.email_verified_at && sessionGym ? await brandOf(sessionGym) : null;
  if (joining?.name) return joinCodeEmail(user.email, name, code, { ...joining, name: joining.name });
  const memberOf = roles.find((role) => role.member_gym_ids.length > 0);
  const gym = roles.some(isStaffRole)
    ? null
    : (sessionGym ??
      (memberOf ? { organisation_id: memberOf.organisation_id, gym_id: memberOf.member_gym_ids[0] } : null));
  const brand = gym ? await brandOf(gym) : null;
  return brand?.name
    ? memberCodeEmail(user.email, name, code, { ...brand, name: brand.name })
    : codeEmail(user.email, name, code);
}

const wrong = (message: string) => new ValidationError({ code: [message] });
const exhausted = () => wrong("Too many incorrect codes. Request a new code.");
/** A counted wrong guess: how many tries are left, or used up. */
const wrongGuess = (tried: LimitTaken) => {
  const left = CODE_MAX_ATTEMPTS - tried.count;
  return tried.ok && left > 0
    ? wrong(`That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`)
    : exhausted();
};

/**
 * Checks a code: right, unexpired, and among the first five tries at it. Each try is counted
 * atomically before the code is compared, so parallel guesses get no more than five compares.
 * A right code is used up; five tries use it up too, and a new one must be requested.
 */
export async function verifyCode(userId: string, code: string): Promise<void> {
  if (isDecoyUser(userId)) return refuseDecoyCode(userId);
  const { data } = await db().entities.code.get({ user_id: userId, purpose: "two_factor" }).go();
  if (!data || data.expires_at <= epochSeconds()) {
    throw wrong("That code has expired. Request a new one.");
  }
  const tried = await takeLimit(guessKey(userId, data.code_hash), {
    limit: CODE_MAX_ATTEMPTS,
    windowSeconds: CODE_LIFETIME_SECONDS,
  });
  if (!tried.ok) throw exhausted();
  if (!/^\d{6}$/.test(code) || !sameHash(data.code_hash, codeHash(userId, code))) throw wrongGuess(tried);
  // Single use: delete only if it is still the same code (a concurrent use loses).
  await db()
    .entities.code.delete({ user_id: userId, purpose: "two_factor" })
    .where(({ code_hash }, { eq }) => eq(code_hash, data.code_hash))
    .go()
    .catch(() => {
      throw wrong("That code has already been used. Request a new one.");
    });
}

/**
 * The code step of signing in (`/email/verify`, `/two-factor-authentication`): the code checked,
 * then the signed-in session made and the address marked verified side by side. The roles that
 * pin a session naming no organisation need nothing from the code: read beside its check.
 * Answers the new session's token.
 */
export async function completeSignIn(pending: Session, code: string): Promise<string> {
  const roles = pending.current_organisation_id ? undefined : rolesOfUser(pending.user_id);
  roles?.catch(() => undefined);
  await verifyCode(pending.user_id, code);
  const [token] = await Promise.all([passTwoFactor(pending, roles), markEmailVerified(pending.user_id)]);
  return token;
}

/** A decoy session's code check: counted and answered as a wrong guess at a live code, never passed. */
async function refuseDecoyCode(userId: string): Promise<never> {
  const tried = await takeLimit(guessKey(userId, "decoy"), {
    limit: CODE_MAX_ATTEMPTS,
    windowSeconds: CODE_LIFETIME_SECONDS,
  });
  throw wrongGuess(tried);
}
