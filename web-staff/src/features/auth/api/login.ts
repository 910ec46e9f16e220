import { api } from "@gym/web/api";
import { emailAddress, requiredSecret, z } from "@gym/web/forms";

export const loginSchema = z.object({
  email: emailAddress(),
  password: requiredSecret(),
});

export type LoginInput = z.output<typeof loginSchema>;

export interface LoginResult {
  /** True when a code was emailed and must be entered before the session is usable. */
  two_factor_required: boolean;
}

/** POST /api/login. */
export function login(input: LoginInput): Promise<LoginResult> {
  return api.post<LoginResult>("/api/login", input);
}
