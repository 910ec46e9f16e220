import { z } from "zod";

/** The spec's messages, word for word. */
export const MESSAGES = {
  required: "Value is required",
  email: "Value is not a valid email address",
  equal: "The value must be equal to the other value",
  max: (n: number) => `The maximum value allowed is ${n}`,
} as const;

/** Text that is trimmed before the required check ("Value is required"). */
export function requiredText(message: string = MESSAGES.required) {
  return z.string({ error: message }).trim().min(1, { error: message });
}

/** Optional text, trimmed; empty becomes "". */
export function optionalText() {
  return z.string().trim().optional().default("");
}

/** A required secret (password, code): blank-only is rejected, but the value is kept as typed. */
export function requiredSecret(message: string = MESSAGES.required) {
  return z.string({ error: message }).refine((value) => value.trim().length > 0, { error: message });
}

/** A required, trimmed email address. */
export function emailAddress() {
  return requiredText().pipe(z.email({ error: MESSAGES.email }));
}
