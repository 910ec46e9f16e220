import {
  confirmEmailChange,
  emailChangeInput,
  requestEmailChange,
  undoEmailChange,
} from "@gym/core/account/email-change";
import { tokenInput } from "@gym/core/auth/links";
import { acceptInvitation, declineInvitation, peekInvitation } from "@gym/core/invitation/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, publicRoute, userRoute } from "../context";
import { envelope, errorResponses, json, jsonBody } from "../respond";

const tags = ["Account"];

/**
 * The person's own account (docs/access-control.md "Whose account it is"): changing the login
 * email (confirmed from the new address, undoable from the old one), and answering an
 * organisation's invitation (docs/access-control.md "Enrolment needs the person").
 */
export const accountRouter = createRouter()
  .openapi(
    userRoute({
      method: "post",
      path: "/me/email",
      tags,
      summary:
        "Ask to change your login email (with your password): a confirmation link goes to the new address; nothing changes until it is used",
      request: jsonBody(emailChangeInput),
      responses: {
        202: json(envelope(z.object({ sent_to: z.string() })), "Confirmation sent"),
        422: errorResponses[422],
        429: errorResponses[429],
      },
    }),
    async (c) => c.json({ data: await requestEmailChange(actorOf(c), c.req.valid("json")) }, 202),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/email-change/confirm",
      tags,
      summary:
        "Confirm a new login email from the link sent to it; the old address is told and may undo it for 7 days",
      request: jsonBody(tokenInput),
      responses: { 200: json(envelope(z.object({ email: z.string() }))), 422: errorResponses[422] },
    }),
    async (c) => c.json({ data: await confirmEmailChange(c.req.valid("json").token) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/email-change/undo",
      tags,
      summary:
        "Undo a login email change from the link sent to the old address: the address comes back, every session ends, a reset link is sent",
      request: jsonBody(tokenInput),
      responses: { 200: json(envelope(z.object({ email: z.string() }))), 422: errorResponses[422] },
    }),
    async (c) => c.json({ data: await undoEmailChange(c.req.valid("json").token) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/invitations/peek",
      tags,
      summary:
        "What an invitation link offers, before the person answers (valid false when it cannot be answered)",
      request: jsonBody(tokenInput),
      responses: {
        200: json(
          envelope(
            z.object({
              valid: z.boolean(),
              kind: z.enum(["staff", "pif"]).optional(),
              organisation: z.string().optional(),
              gym: z.string().optional(),
              /** The gym's public join id (a member's invitation), for the join site's branding. */
              gym_uuid: z.string().nullable().optional(),
              offer: z.string().optional(),
              email: z.string().optional(),
            }),
          ),
        ),
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await peekInvitation(c.req.valid("json").token) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/invitations/accept",
      tags,
      summary:
        "Accept an invitation: the staff role, or the pay-in-full membership (recorded as paid at the desk, with its tax invoice)",
      request: jsonBody(tokenInput),
      responses: {
        200: json(
          envelope(z.object({ kind: z.enum(["staff", "pif"]), organisation: z.string(), gym: z.string() })),
        ),
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await acceptInvitation(c.req.valid("json").token) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/invitations/decline",
      tags,
      summary: "Decline an invitation: nothing of it is kept",
      request: jsonBody(tokenInput),
      responses: { 200: json(envelope(z.object({ declined: z.literal(true) }))), 422: errorResponses[422] },
    }),
    async (c) => c.json({ data: await declineInvitation(c.req.valid("json").token) }, 200),
  );
