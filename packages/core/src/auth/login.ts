import { z } from "zod";
import { decoyHash, verifyPassword } from "../crypto/password";
import { RateLimitedError, ValidationError } from "../errors";
import { findUserByEmail } from "../user/service";
import { messages } from "../validation";
import { createSession } from "./session";
import { clearLimit, returnLimit, takeLimit } from "./throttle";
import { issueCode } from "./two-factor";

export const loginInput = z.object({
  email: z.string({ error: messages.required }).trim().min(1, messages.required).max(254).toLowerCase(),
  password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
});

/**
 * Brute-force limits. Per account (known or not, so nothing reveals which exist): from the 4th
 * failure in 15 minutes each answer is slowed, the 10th is answered 429, and the account
 * refuses sign-in for the rest of the window (at most 10 passwords are ever compared). Per
 * client address: 30 failures in 15 minutes refuse it.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const ACCOUNT_SLOW_AFTER = 3;
export const ACCOUNT_LOCK_AFTER = 10;
export const ADDRESS_LOCK_AFTER = 30;

const accountKey = (email: string) => `login:account:${email}`;
const addressKey = (ip: string) => `login:address:${ip}`;
const refused = (retryAfterSeconds = LOGIN_WINDOW_SECONDS) =>
  new RateLimitedError(
    "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
    retryAfterSeconds,
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The first slowed answer waits this long, doubling each failure up to 4 s (tests shorten it). */
const slowdownBaseMs = () => Number(process.env.LOGIN_SLOWDOWN_BASE_MS ?? 250);

/**
 * Checks the password and, when right, starts a session that waits for the emailed code.
 * Returns the cookie token. Wrong email and wrong password give the same answer.
 *
 * The attempt is counted first, atomically, against the address and then the account
 * (`takeLimit`); the password is compared only when both counts were taken, so parallel
 * guesses cannot compare more than the limits allow. A right password gives its counts back.
 */
export async function login(input: z.infer<typeof loginInput>, client: { ip: string; user_agent?: string }) {
  const address = await takeLimit(addressKey(client.ip), {
    limit: ADDRESS_LOCK_AFTER,
    windowSeconds: LOGIN_WINDOW_SECONDS,
  });
  if (!address.ok) throw refused(address.retryAfterSeconds);
  const account = await takeLimit(accountKey(input.email), {
    limit: ACCOUNT_LOCK_AFTER,
    windowSeconds: LOGIN_WINDOW_SECONDS,
  });
  if (!account.ok) {
    // Not compared, so not a failure of this address.
    await returnLimit(addressKey(client.ip));
    throw refused(account.retryAfterSeconds);
  }
  const earlierFailures = account.count - 1;
  if (earlierFailures >= ACCOUNT_SLOW_AFTER)
    await sleep(Math.min(slowdownBaseMs() * 2 ** (earlierFailures - ACCOUNT_SLOW_AFTER), 4000));

  const user = await findUserByEmail(input.email);
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyPassword(await decoyHash(), input.password);
  if (!user || !ok) {
    if (account.count >= ACCOUNT_LOCK_AFTER) throw refused();
    throw new ValidationError({ email: ["These credentials do not match our records."] });
  }
  await Promise.all([clearLimit(accountKey(input.email)), returnLimit(addressKey(client.ip))]);
  const { token, session } = await createSession({
    user_id: user.user_id,
    two_factor_passed: false,
    ...client,
  });
  await issueCode(user.user_id);
  return { token, session, user };
}
