import type { z } from "zod";
import { messages } from "./contract/fields";
import { ValidationError } from "./errors";

export { email, messages, optionalText, requiredText } from "./contract/fields";

const wrongType: Record<string, string> = {
  number: "Enter a number",
  int: "Enter a whole number",
  string: "Enter text",
  boolean: "Choose yes or no",
  array: "Choose one or more",
  date: "Enter a valid date",
};

/** A missing value says "Value is required"; a value of the wrong kind says what is expected. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code !== "invalid_type") return issue.message;
  // Zod 4 leaves the input out of issues unless asked, but its default message names it.
  const missing =
    "input" in issue
      ? issue.input === undefined || issue.input === null
      : /received (undefined|null)/.test(issue.message);
  if (missing) return messages.required;
  if (!/^Invalid input: expected /.test(issue.message)) return issue.message;
  return wrongType[issue.expected] ?? "The value is not valid";
}

/** Turns zod issues into the API's field map: `{ "field.path": ["message"] }`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    out[key] = [...(out[key] ?? []), issueMessage(issue)];
  }
  return out;
}

/** Parses input with a schema or throws a ValidationError (422) carrying field messages. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrors(result.error));
  return result.data;
}
