import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { config } from "../config";

/**
 * Secrets at rest (provider credentials a gym or organisation gives us: the Akahu app secret, the
 * Branch secret, the Kisi API key, members' Akahu user tokens). AES-256-GCM with a random 96-bit
 * IV; the key is SHA-256 of the stage's `ENCRYPTION_KEY` secret, so any long random string works
 * as the secret. The `context` (e.g. `gym:<id>:branch_secret`) is bound as additional
 * authenticated data, so a ciphertext copied into another record or field does not decrypt.
 *
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url). Never returned to a browser: use
 * {@link maskedSecret}.
 */
const VERSION = "v1";

function key(): Buffer {
  return createHash("sha256").update(config.secret("ENCRYPTION_KEY")).digest();
}

export function encryptSecret(plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join(".");
}

/** Throws when the value was tampered with, was made for another context, or under another key. */
export function decryptSecret(stored: string, context: string): string {
  const [version, iv, tag, body] = stored.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Not an encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** What a browser sees of a secret: whether it is set, and its last four characters. */
export interface MaskedSecret {
  set: boolean;
  masked: string | null;
}

export function maskSecret(plain: string | null | undefined): MaskedSecret {
  if (!plain) return { set: false, masked: null };
  return { set: true, masked: `••••${plain.length > 8 ? plain.slice(-4) : ""}` };
}

/** Masks a stored (encrypted) secret; an undecryptable value still shows as set. */
export function maskedSecret(stored: string | null | undefined, context: string): MaskedSecret {
  if (!stored) return { set: false, masked: null };
  try {
    return maskSecret(decryptSecret(stored, context));
  } catch {
    return { set: true, masked: "••••" };
  }
}
