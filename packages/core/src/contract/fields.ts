/**
 * The spec's messages and the field rules every form and route shares (browser-safe).
 */
import { z } from "zod";
import { isCivilDate } from "../billing/calendar";

/** The spec's messages (000 §5, 001 §5, §8). */
export const messages = {
  required: "Value is required",
  email: "Value is not a valid email address",
  max: (n: number) => `The maximum value allowed is ${n}`,
  equal: "The value must be equal to the other value",
} as const;

/** The message for a date that is not a real calendar day written YYYY-MM-DD. */
export const dateMessage = "Enter a date as YYYY-MM-DD";

/**
 * Every civil date the API takes (bodies and query strings): "YYYY-MM-DD" that exists on the
 * calendar (billing/calendar's `isCivilDate`), so "2027-02-30", "2027-02-29" and "2027-13-01" are a
 * 422 on the field, never rolled over to March. Instants are not accepted where a day is meant.
 */
export const civilDateField = (invalid: string = dateMessage) =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required, abort: true })
    .refine(isCivilDate, invalid);

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
