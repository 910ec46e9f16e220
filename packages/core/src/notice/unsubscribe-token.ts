/**
 * The one-click unsubscribe token (RFC 8058): the member's id and an HMAC of it under the session
 * secret (with its own purpose prefix, so it can stand for nothing else). It does not expire: an
 * unsubscribe link in an old email must still work. It can do one thing: turn the member's optional
 * emails off.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../config";

const mac = (userId: string) =>
  createHmac("sha256", config.secret("SESSION_SECRET")).update(`unsubscribe:${userId}`).digest("base64url");

export function unsubscribeToken(userId: string): string {
  return `${userId}.${mac(userId)}`;
}

/** The member's id when the token is genuine, else null. */
export function userOfUnsubscribeToken(token: string): string | null {
  const [userId, given, extra] = token.split(".");
  if (!userId || !given || extra !== undefined || userId.length > 64) return null;
  const expected = Buffer.from(mac(userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : null;
}

/** Where the email's "Stop these emails" link goes: the join site's page, which confirms with one click. */
export const unsubscribePageUrl = (userId: string) =>
  `${config.joinUrl}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId))}`;

/** The List-Unsubscribe address mail clients POST to (`List-Unsubscribe=One-Click`). */
export const unsubscribePostUrl = (userId: string) =>
  `${config.joinUrl}/api/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId))}`;
