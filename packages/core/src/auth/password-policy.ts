import { z } from "zod";
import { messages } from "../validation";
import { commonLongPasswords } from "./common-passwords";

let common: Set<string> | undefined;
/** Built on first use, not at cold start. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(commonLongPasswords.split("\n"));
  return common.has(password.toLowerCase());
}

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/**
 * NIST 800-63B style: long enough, not one of the most common passwords (Mozilla's list, as
 * used by Firefox Accounts), and no arbitrary composition rules.
 */
export const newPassword = z
  .string({ error: messages.required })
  .min(1, messages.required)
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`)
  .refine((password) => !isCommonPassword(password), {
    message: "That password is too common. Choose one that is harder to guess.",
  });
