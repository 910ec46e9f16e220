/**
 * Redaction, shared by the webhook log (what it keeps of a body) and every log line (core/log.ts).
 * What the webhook log keeps of a body: the structure and the ids needed to debug, without card
 * or bank numbers, tokens, secrets, signatures or personal contact details.
 *  - keys naming a secret or an account number (`token`, `secret`, `password`, `signature`,
 *    `authorization`, `account_number`, `number`, `cvc`, `iban`, `email`, `phone`, …) → "[redacted]";
 *  - card-like digit runs (13–19 digits) and NZ bank account numbers in any string → masked to
 *    their last four digits;
 *  - the result is cut to 32 KB.
 */
const SECRET_KEY =
  /(token|secret|password|passcode|signature|authori[sz]ation|api[_-]?key|private|cvc|cvv|iban|account_number|bank_account|routing|^number$|card_number|fingerprint|email|phone|mobile|address|dob|birth)/i;
const CARD_RUN = /\b(?:\d[ -]?){12,18}\d\b/g;
const NZ_BANK = /\b\d{2}[- ]?\d{4}[- ]?\d{7}[- ]?\d{2,3}\b/g;
const MAX_BYTES = 32 * 1024;

function maskDigits(match: string): string {
  const digits = match.replace(/\D/g, "");
  return `[redacted …${digits.slice(-4)}]`;
}

function redactString(value: string): string {
  return value.replace(NZ_BANK, maskDigits).replace(CARD_RUN, maskDigits);
}

export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 20) return "[truncated]";
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] =
        SECRET_KEY.test(key) && item !== null && item !== "" && typeof item !== "boolean"
          ? "[redacted]"
          : redactValue(item, depth + 1);
    }
    return out;
  }
  return value;
}

/** Redacts a raw body: JSON is redacted field by field; anything else as text. */
export function redactBody(raw: string): string {
  let text: string;
  try {
    text = JSON.stringify(redactValue(JSON.parse(raw)));
  } catch {
    text = redactString(raw);
  }
  return text.length > MAX_BYTES ? `${text.slice(0, MAX_BYTES)}…[truncated]` : text;
}
