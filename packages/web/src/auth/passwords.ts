import type { LinkCheck } from "@gym/core/contract/auth";
import { api } from "@gym/web/api";
import { emailAddress, MESSAGES, requiredSecret, z } from "@gym/web/forms";

/** The server's rule (core/auth/password-policy.ts): 10+ characters and not a common password. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters. Avoid common passwords; a short phrase works well.`;

export const forgotPasswordSchema = z.object({ email: emailAddress() });

export const newPasswordSchema = z
  .object({
    password: requiredSecret().refine((value) => value.length >= PASSWORD_MIN_LENGTH, {
      error: `Use at least ${PASSWORD_MIN_LENGTH} characters`,
    }),
    password_confirmation: requiredSecret(),
  })
  .refine((values) => values.password === values.password_confirmation, {
    path: ["password_confirmation"],
    error: MESSAGES.equal,
  });

export type NewPasswordInput = z.output<typeof newPasswordSchema>;

/**
 * POST /api/forgot-password: the answer is the same whether or not the account exists. From the
 * join site (`site: "join"`, with the gym it shows) the emailed link opens the join site's page.
 */
export async function forgotPassword(
  email: string,
  from: { site: "join"; gym: string | null } | null = null,
): Promise<string> {
  const result = await api.post<{ message: string }>("/api/forgot-password", {
    email,
    ...(from ? { site: from.site, ...(from.gym ? { gym: from.gym } : {}) } : {}),
  });
  return result.message;
}

export type { LinkCheck };

/** POST /api/validate-link: whether a reset or invitation link can still be used. */
export function validateLink(token: string): Promise<LinkCheck> {
  return api.post<LinkCheck>("/api/validate-link", { token });
}

/** POST /api/reset-password: sets the password (the link is used up; every session ends). */
export function resetPassword(
  token: string,
  input: NewPasswordInput,
): Promise<{ message: string; email: string }> {
  return api.post("/api/reset-password", { token, ...input });
}
