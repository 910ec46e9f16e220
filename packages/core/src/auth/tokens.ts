import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { config } from "../config";

/** An unguessable token for a cookie or an emailed link (256 bits). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the table stores in place of a token. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function newSixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** Codes are short, so they are keyed with the session secret: a leaked table does not reveal them. */
export function codeHash(userId: string, code: string): string {
  return createHmac("sha256", config.secret("SESSION_SECRET"))
    .update(`${userId}:${code}`)
    .digest("base64url");
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export const epochSeconds = (at = Date.now()) => Math.floor(at / 1000);
