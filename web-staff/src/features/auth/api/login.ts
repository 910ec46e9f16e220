import { emailAddress, requiredSecret, z } from "@gym/web/forms";

export const loginSchema = z.object({
  email: emailAddress(),
  password: requiredSecret(),
});

export type LoginInput = z.output<typeof loginSchema>;

/** A six-digit emailed sign-in code. */
export const CODE_LENGTH = 6;
