/** Answers of the sign-in and password calls (routers/auth.ts; auth/). */
import { z } from "zod";

/** `POST /api/validate-link`: whether a reset or invitation link can still be used, and for whom. */
export const linkCheckSchema = z
  .object({
    valid: z.boolean(),
    purpose: z.enum(["reset", "invite"]).optional(),
    email: z.string().optional(),
    name: z.string().optional(),
  })
  .meta({ id: "LinkCheck" });
export type LinkCheck = z.output<typeof linkCheckSchema>;
