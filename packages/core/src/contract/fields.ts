/**
 * The spec's messages and the field rules every form and route shares (browser-safe).
 */
import { z } from "zod";

/** The spec's messages (000 §5, 001 §5, §8). */
export const messages = {
  required: "Value is required",
  email: "Value is not a valid email address",
  max: (n: number) => `The maximum value allowed is ${n}`,
  equal: "The value must be equal to the other value",
} as const;

/** Text trimmed before the required check. */
export const requiredText = (max = 255) =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .max(max, `The maximum length allowed is ${max} characters`);

export const optionalText = (max = 2000) =>
  z
    .string()
    .trim()
    .max(max, `The maximum length allowed is ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const email = () =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .pipe(z.email({ error: messages.email }))
    .transform((v) => v.toLowerCase());

/** Lets a cross-field check run even when single fields failed, so every message shows at once. */
export const whenAnObject = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value),
};

/** A required secret (password, code): blank-only is refused, but the value is kept as typed. */
export const requiredSecret = () =>
  z
    .string({ error: messages.required })
    .refine((value) => value.trim().length > 0, { error: messages.required });
