import { z } from "zod";
import { decoyHash, verifyPassword } from "../crypto/password";
import { RateLimitedError, ValidationError } from "../errors";
import { findUserByEmail } from "../user/service";
import { messages } from "../validation";
import { createSession, DECOY_USER_PREFIX } from "./session";
import { clearLimit, returnLimit, takeLimit } from "./throttle";
import { newToken } from "./tokens";
import { issueCode } from "./two-factor";

export const loginInput = z.object({
  email: z.string({ error: messages.required }).trim().min(1, messages.required).max(254).toLowerCase(),
  password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
});

/**
 * Brute-force limits that an attacker cannot turn against the owner (docs/architecture.md
 * "Limits", the rule in words in docs/staff-shell.md "Sign-in limits"). In a 15-minute window:
 *  - per (account, client address): from the 4th failure each answer is slowed (250 ms doubling,
 *    at most 4 s); after 10 attempts that address is refused (429) for that account;
 *  - per client address, across accounts: 30 compared passwords, then 429;
 *  - per account, across addresses: slowed the same way, and after 9 failures the account is
 *    **guarded** for the rest of the window: every sign-in answers the code step (200) whatever
 *    the password. A right password emails the code as always, so the owner signs in with it from
 *    anywhere; a wrong one (or an unknown account) gets a pending session that no code passes
 *    (`startDecoySession`). So at most 9 passwords a window are ever told right from wrong,
 *    however many addresses guess, and nobody can lock the owner out.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const SLOW_AFTER = 3;
export const PAIR_LOCK_AFTER = 10;
export const ACCOUNT_GUARD_AFTER = 9;
export const ADDRESS_LOCK_AFTER = 30;
const MAX_SLOWDOWN_MS = 4000;

const accountKey = (email: string) => `login:account:${email}`;
const pairKey = (email: string, ip: string) => `login:pair:${email}:${ip}`;
const addressKey = (ip: string) => `login:address:${ip}`;
const refused = (retryAfterSeconds = LOGIN_WINDOW_SECONDS) =>
  new RateLimitedError(
    "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
    retryAfterSeconds,
  );
const window = (limit: number) => ({ limit, windowSeconds: LOGIN_WINDOW_SECONDS });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The first slowed answer waits this long, doubling each failure up to 4 s (tests shorten it). */
const slowdownBaseMs = () => Number(process.env.LOGIN_SLOWDOWN_BASE_MS ?? 250);
const slowdownMs = (earlierFailures: number) =>
  earlierFailures < SLOW_AFTER
    ? 0
    : Math.min(slowdownBaseMs() * 2 ** (earlierFailures - SLOW_AFTER), MAX_SLOWDOWN_MS);

/**
 * Checks the password and, when right, starts a session that waits for the emailed code.
 * Returns the cookie token. Wrong email and wrong password give the same answer.
 *
 * The attempt is counted first, atomically, against the address, the (account, address) pair
 * and the account (`takeLimit`); the password is compared only when the address and pair counts
 * were taken, so parallel guesses cannot compare more than the limits allow. The answer comes no
 * sooner than the slowdown, so a guarded answer takes as long whether or not a code was sent.
 */
export async function login(input: z.infer<typeof loginInput>, client: { ip: string; user_agent?: string }) {
  const started = Date.now();
  const address = await takeLimit(addressKey(client.ip), window(ADDRESS_LOCK_AFTER));
  if (!address.ok) throw refused(address.retryAfterSeconds);
  const [pair, account] = await Promise.all([
    takeLimit(pairKey(input.email, client.ip), window(PAIR_LOCK_AFTER)),
    takeLimit(accountKey(input.email), window(ACCOUNT_GUARD_AFTER + 1)),
  ]);
  if (!pair.ok) {
    // Not compared, so not a failure of this address (nor, then, of the account).
    await Promise.all([
      returnLimit(addressKey(client.ip)),
      account.ok ? returnLimit(accountKey(input.email)) : undefined,
    ]);
    throw refused(pair.retryAfterSeconds);
  }
  // Guarded: nine failures across addresses already; this answer must not tell right from wrong.
  const guarded = !account.ok || account.count > ACCOUNT_GUARD_AFTER;
  const answerAt =
    started +
    Math.max(slowdownMs(pair.count - 1), slowdownMs(guarded ? ACCOUNT_GUARD_AFTER : account.count - 1));

  const user = await findUserByEmail(input.email);
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyPassword(await decoyHash(), input.password);
  if (!user || !ok) {
    if (!guarded) {
      await sleep(answerAt - Date.now());
      throw new ValidationError({ email: ["These credentials do not match our records."] });
    }
    const decoy = await startDecoySession(client);
    await sleep(answerAt - Date.now());
    return { ...decoy, user: null };
  }
  // A right password: the owner. While guarded the counts stay (giving them back would tell).
  if (!guarded)
    await Promise.all([
      clearLimit(accountKey(input.email)),
      clearLimit(pairKey(input.email, client.ip)),
      returnLimit(addressKey(client.ip)),
    ]);
  // The session and the code are independent writes: side by side.
  const [{ token, session }] = await Promise.all([
    createSession({ user_id: user.user_id, two_factor_passed: false, ...client }),
    issueCode(user.user_id, { user }),
  ]);
  await sleep(answerAt - Date.now());
  return { token, session, user };
}

/**
 * A guarded account's answer to a wrong password (or an unknown account): a pending session like
 * the owner's, for a user that does not exist, so no code ever passes it (two-factor.ts answers
 * its code checks and resends as for a real code, and emails nothing).
 */
async function startDecoySession(client: { ip: string; user_agent?: string }) {
  const decoy = `${DECOY_USER_PREFIX}${newToken().slice(0, 26)}`;
  const { token, session } = await createSession({ user_id: decoy, two_factor_passed: false, ...client });
  await issueCode(decoy);
  return { token, session };
}
