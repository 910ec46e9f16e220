import { z } from "zod";
import { ValidationError } from "./errors";

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

/** Turns zod issues into the API's field map: `{ "field.path": ["message"] }`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    const message =
      issue.code === "invalid_type" && issue.input === undefined ? messages.required : issue.message;
    (out[key] ??= []).push(message);
  }
  return out;
}

/** Parses input with a schema or throws a ValidationError (422) carrying field messages. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrors(result.error));
  return result.data;
}
