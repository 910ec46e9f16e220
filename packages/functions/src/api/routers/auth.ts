import {
  forgotPassword,
  forgotPasswordInput,
  resetPassword,
  resetPasswordInput,
  tokenInput,
  validateLink,
} from "@gym/core/auth/links";
import { login, loginInput } from "@gym/core/auth/login";
import { endSession } from "@gym/core/auth/session";
import { completeSignIn, issueCode } from "@gym/core/auth/two-factor";
import { linkCheckSchema } from "@gym/core/contract/auth";
import { messages } from "@gym/core/validation";
import { type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, createRouter, publicRoute, sessionRoute } from "../context";
import { clearSessionCookie, clientAddress, setSessionCookie } from "../middleware/auth";
import { envelope, errorResponses, json } from "../respond";

const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});
const messageBody = envelope(z.object({ message: z.string() }));
const codeInput = z.object({
  code: z.string({ error: messages.required }).trim().min(1, messages.required).max(12),
});

/** The two calls that take the emailed code (spec 000 §7: /email/verify; the staff page's own path). */
const codeCheck = (path: string, summary: string) =>
  sessionRoute({
    method: "post",
    path,
    tags: ["Auth"],
    summary,
    request: body(codeInput),
    responses: { 200: json(messageBody), 401: errorResponses[401], 422: errorResponses[422] },
  });

const codeStep: RouteHandler<ReturnType<typeof codeCheck>, AppEnv> = async (c) => {
  setSessionCookie(c, await completeSignIn(c.get("session")!, c.req.valid("json").code));
  return c.json({ data: { message: "Signed in." } }, 200);
};

/** Sign-in, the emailed second factor, sign-out, and password links. */
export const authRouter = createRouter()
  .openapi(
    publicRoute({
      method: "post",
      path: "/login",
      tags: ["Auth"],
      summary: "Check email and password; email a sign-in code",
      request: body(loginInput),
      responses: {
        200: json(envelope(z.object({ two_factor_required: z.literal(true) }))),
        422: errorResponses[422],
        429: { description: "Too many failed attempts" },
      },
    }),
    async (c) => {
      const { token } = await login(c.req.valid("json"), {
        ip: clientAddress(c),
        user_agent: c.req.header("user-agent"),
      });
      setSessionCookie(c, token);
      return c.json({ data: { two_factor_required: true as const } }, 200);
    },
  )
  .openapi(
    codeCheck("/email/verify", "Give the emailed six-digit code; completes sign-in (and verifies the email)"),
    codeStep,
  )
  .openapi(
    codeCheck("/two-factor-authentication", "The staff sign-in code check (same rules as /email/verify)"),
    codeStep,
  )
  .openapi(
    sessionRoute({
      method: "post",
      path: "/email/resend",
      tags: ["Auth"],
      summary: "Email a new code (at most one every 30 seconds, five an hour)",
      responses: { 200: json(messageBody), 401: errorResponses[401], 429: { description: "Too soon" } },
    }),
    async (c) => {
      const session = c.get("session")!;
      await issueCode(session.user_id, {
        resend: true,
        gym:
          session.current_organisation_id && session.current_gym_id
            ? { organisation_id: session.current_organisation_id, gym_id: session.current_gym_id }
            : null,
      });
      return c.json({ data: { message: "We've emailed you a new code." } }, 200);
    },
  )
  .openapi(
    sessionRoute({
      method: "post",
      path: "/logout",
      tags: ["Auth"],
      summary: "End this session",
      responses: { 200: json(messageBody), 401: errorResponses[401] },
    }),
    async (c) => {
      await endSession(c.get("session")!.session_id);
      clearSessionCookie(c);
      return c.json({ data: { message: "Signed out." } }, 200);
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/forgot-password",
      tags: ["Auth"],
      summary: "Email a reset link if the account exists (the answer is the same either way)",
      request: body(forgotPasswordInput),
      responses: { 200: json(messageBody), 422: errorResponses[422] },
    }),
    async (c) => {
      const { email, site, gym } = c.req.valid("json");
      await forgotPassword(email, { site, gym });
      return c.json(
        {
          data: { message: "If an account exists for that email, we've sent a link to reset its password." },
        },
        200,
      );
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/validate-link",
      tags: ["Auth"],
      summary: "Whether a reset or invitation link can still be used",
      request: body(tokenInput),
      responses: {
        200: json(envelope(linkCheckSchema)),
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await validateLink(c.req.valid("json").token) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/reset-password",
      tags: ["Auth"],
      summary: "Set a new password from a reset or invitation link (single use); ends every session",
      request: body(resetPasswordInput),
      responses: {
        200: json(envelope(z.object({ message: z.string(), email: z.string() }))),
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const { email } = await resetPassword(c.req.valid("json"));
      clearSessionCookie(c);
      return c.json({ data: { message: "Your password is set. Sign in with it now.", email } }, 200);
    },
  );
