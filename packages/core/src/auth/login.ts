import { z } from "zod";
import { RateLimitedError, ValidationError } from "../errors";
import { findUserByEmail } from "../user/service";
import { messages } from "../validation";
import { decoyHash, verifyPassword } from "./password";
import { createSession } from "./session";
import { throttleClear, throttleCount, throttleHit } from "./throttle";
import { issueCode } from "./two-factor";

export const loginInput = z.object({
  email: z.string({ error: messages.required }).trim().min(1, messages.required).max(254).toLowerCase(),
  password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
});

/**
 * Brute-force limits. Per account (known or not, so nothing reveals which exist): from the 4th
 * failure in 15 minutes each answer is slowed, and from the 10th the account refuses sign-in
 * for the rest of the window. Per client address: 30 failures in 15 minutes refuse it.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const ACCOUNT_SLOW_AFTER = 3;
export const ACCOUNT_LOCK_AFTER = 10;
export const ADDRESS_LOCK_AFTER = 30;

const accountKey = (email: string) => `login:account:${email}`;
const addressKey = (ip: string) => `login:address:${ip}`;
const refused = () =>
  new RateLimitedError(
    "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
    LOGIN_WINDOW_SECONDS,
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The first slowed answer waits this long, doubling each failure up to 4 s (tests shorten it). */
const slowdownBaseMs = () => Number(process.env.LOGIN_SLOWDOWN_BASE_MS ?? 250);

/**
 * Checks the password and, when right, starts a session that waits for the emailed code.
 * Returns the cookie token. Wrong email and wrong password give the same answer.
 */
export async function login(input: z.infer<typeof loginInput>, client: { ip: string; user_agent?: string }) {
  const [accountFailures, addressFailures] = await Promise.all([
    throttleCount(accountKey(input.email), LOGIN_WINDOW_SECONDS),
    throttleCount(addressKey(client.ip), LOGIN_WINDOW_SECONDS),
  ]);
  if (accountFailures >= ACCOUNT_LOCK_AFTER || addressFailures >= ADDRESS_LOCK_AFTER) throw refused();
  if (accountFailures >= ACCOUNT_SLOW_AFTER)
    await sleep(Math.min(slowdownBaseMs() * 2 ** (accountFailures - ACCOUNT_SLOW_AFTER), 4000));

  const user = await findUserByEmail(input.email);
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyPassword(await decoyHash(), input.password);
  if (!user || !ok) {
    const [account] = await Promise.all([
      throttleHit(accountKey(input.email), LOGIN_WINDOW_SECONDS),
      throttleHit(addressKey(client.ip), LOGIN_WINDOW_SECONDS),
    ]);
    if (account >= ACCOUNT_LOCK_AFTER) throw refused();
    throw new ValidationError({ email: ["These credentials do not match our records."] });
  }
  await throttleClear(accountKey(input.email));
  const { token, session } = await createSession({
    user_id: user.user_id,
    two_factor_passed: false,
    ...client,
  });
  await issueCode(user.user_id);
  return { token, session, user };
}
