import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { config } from "../config";

/**
 * Codes the simulated providers hand out on their consent pages (the OAuth `code`). They carry
 * their own payload and an HMAC, so the exchange can check them without shared state; each is
 * accepted once per process and for ten minutes, like the real providers' codes.
 */
const used = new Set<string>();
const TTL_MS = 10 * 60 * 1000;

function mac(body: string) {
  return createHmac("sha256", config.secret("SESSION_SECRET"))
    .update(`simulated-code:${body}`)
    .digest("base64url");
}

export function issueSimulatedCode(prefix: string, payload: Record<string, string>): string {
  const body = Buffer.from(
    JSON.stringify({ ...payload, n: randomBytes(6).toString("hex"), t: Date.now() }),
  ).toString("base64url");
  return `${prefix}${body}.${mac(body)}`;
}

/** The payload of a code this process issued, or null (unknown, tampered, expired or already used). */
export function redeemSimulatedCode(prefix: string, code: string): Record<string, string> | null {
  if (!code.startsWith(prefix)) return null;
  const [body, signature] = code.slice(prefix.length).split(".");
  if (!body || !signature) return null;
  const expected = Buffer.from(mac(body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (used.has(code)) return null;
  let payload: Record<string, string> & { t?: number };
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof payload.t !== "number" || Date.now() - payload.t > TTL_MS) return null;
  used.add(code);
  return payload;
}
