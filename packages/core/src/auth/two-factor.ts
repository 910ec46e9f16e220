import { db } from "../db/service";
import { sendEmail } from "../email/port";
import { RateLimitedError, ValidationError } from "../errors";
import { titleCase } from "../text";
import { getUser } from "../user/service";
import { codeEmail } from "./emails";
import { throttleCount, throttleHit } from "./throttle";
import { codeHash, epochSeconds, newSixDigitCode, sameHash } from "./tokens";

export const CODE_LIFETIME_SECONDS = 10 * 60;
export const CODE_MAX_ATTEMPTS = 5;
/** Resend: at most one code every 30 seconds, and 5 an hour. */
export const RESEND_GAP_SECONDS = 30;
export const CODES_PER_HOUR = 5;

/** Emails a fresh code, replacing any earlier one. */
export async function issueCode(userId: string, options: { resend?: boolean } = {}) {
  const user = await getUser(userId);
  const existing = await db().entities.code.get({ user_id: userId, purpose: "two_factor" }).go();
  const now = epochSeconds();
  if (
    options.resend &&
    existing.data &&
    Date.parse(existing.data.sent_at) / 1000 + RESEND_GAP_SECONDS > now
  ) {
    throw new RateLimitedError(
      "A code was sent moments ago. Please wait 30 seconds before asking for another.",
      30,
    );
  }
  if ((await throttleCount(`codes:${userId}`, 3600)) >= CODES_PER_HOUR) {
    throw new RateLimitedError("Too many codes requested. Please wait an hour and try again.", 3600);
  }
  await throttleHit(`codes:${userId}`, 3600);
  const code = newSixDigitCode();
  await db()
    .entities.code.put({
      user_id: userId,
      purpose: "two_factor",
      code_hash: codeHash(userId, code),
      attempts: 0,
      sent_at: new Date().toISOString(),
      expires_at: now + CODE_LIFETIME_SECONDS,
    })
    .go();
  await sendEmail(codeEmail(user.email, titleCase(user.name), code));
}

const wrong = (message: string) => new ValidationError({ code: [message] });

/**
 * Checks a code: right, unexpired, fewer than five tries. A right code is used up; five wrong
 * tries use it up too, and a new one must be requested.
 */
export async function verifyCode(userId: string, code: string): Promise<void> {
  const { data } = await db().entities.code.get({ user_id: userId, purpose: "two_factor" }).go();
  if (!data || data.expires_at <= epochSeconds()) {
    throw wrong("That code has expired. Request a new one.");
  }
  if (data.attempts >= CODE_MAX_ATTEMPTS) {
    throw wrong("Too many incorrect codes. Request a new code.");
  }
  if (!/^\d{6}$/.test(code) || !sameHash(data.code_hash, codeHash(userId, code))) {
    // Counted with a condition so two guesses at once cannot both get a free try.
    await db()
      .entities.code.update({ user_id: userId, purpose: "two_factor" })
      .add({ attempts: 1 })
      .where(({ attempts }, { lt }) => lt(attempts, CODE_MAX_ATTEMPTS))
      .go()
      .catch(() => undefined);
    const left = CODE_MAX_ATTEMPTS - data.attempts - 1;
    throw wrong(
      left > 0
        ? `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`
        : "Too many incorrect codes. Request a new code.",
    );
  }
  // Single use: delete only if it is still the same code (a concurrent use loses).
  await db()
    .entities.code.delete({ user_id: userId, purpose: "two_factor" })
    .where(({ code_hash }, { eq }) => eq(code_hash, data.code_hash))
    .go()
    .catch(() => {
      throw wrong("That code has already been used. Request a new one.");
    });
}
