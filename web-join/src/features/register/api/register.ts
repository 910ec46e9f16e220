import { api } from "@gym/web/api";
import { emailAddress, MESSAGES, requiredSecret, requiredText, z } from "@gym/web/forms";

/** The server's rule (core/auth/password-policy.ts): 10+ characters, not a common password. */
export const PASSWORD_MIN_LENGTH = 10;

/** Digits with optional +, spaces, brackets and dashes; 8 to 15 digits (NZ mobiles are 9-11). */
function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, "");
  return /^\+?[\d\s()-]+$/.test(value) && digits.length >= 8 && digits.length <= 15;
}

export const registerSchema = z.object({
  name: requiredText(),
  email: emailAddress(),
  mobile_number: requiredText().refine(isPhoneNumber, { error: "Value is not a valid mobile number" }),
  /** "YYYY-MM-DD", as the date picker gives it (null until picked). */
  dob: z
    .string()
    .nullable()
    .refine((value) => Boolean(value), { error: MESSAGES.required, abort: true })
    .transform((value) => value as string)
    .refine((value) => value < new Date().toISOString().slice(0, 10), {
      error: "Date of birth must be in the past",
    }),
  password: requiredSecret().refine((value) => value.length >= PASSWORD_MIN_LENGTH, {
    error: `Use at least ${PASSWORD_MIN_LENGTH} characters`,
  }),
});

export type RegisterInput = z.output<typeof registerSchema>;

/** POST /api/register: creates the member and emails a verification code. */
export function register(input: RegisterInput): Promise<unknown> {
  return api.post("/api/register", input);
}
