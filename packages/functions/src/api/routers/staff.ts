import {
  staffExistsInput,
  staffExistsSchema,
  staffInviteInput,
  staffMemberSchema,
} from "@gym/core/contract/staff";
import {
  deactivateStaff,
  inviteStaff,
  listStaff,
  readStaff,
  resendInvitation,
  staffExists,
} from "@gym/core/staff/service";
import { actorOf, createRouter, staffRoute } from "../context";
import { envelope, errorResponses, idParam, json, jsonBody, wholeList } from "../respond";

/** Staff management (spec 001 §7 Staff): organisation admins. docs/members.md "Staff". */
export const staffRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/staff",
      tags: ["Staff"],
      summary: "The organisation's staff with their roles and per-gym roles, by name (tens: answered whole)",
      request: { params: idParam },
      responses: {
        200: json(wholeList(staffMemberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await listStaff(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/organisations/{id}/staff-exists",
      tags: ["Staff"],
      summary: "Whether an email already has an account (then inviting needs no name) and is staff here",
      request: { params: idParam, ...jsonBody(staffExistsInput) },
      responses: {
        200: json(envelope(staffExistsSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await staffExists(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/organisations/{id}/staff",
      tags: ["Staff"],
      summary:
        "Invite a staff member (email and role; name unless they have an account; per-gym roles as a list); a new person is emailed an invitation link to /set-password",
      request: { params: idParam, ...jsonBody(staffInviteInput) },
      responses: {
        201: json(envelope(staffMemberSchema), "Invited"),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await inviteStaff(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/staff/{id}",
      tags: ["Staff"],
      summary: "One staff member of the current organisation",
      request: { params: idParam },
      responses: {
        200: json(envelope(staffMemberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await readStaff(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/staff/{id}/resend-invitation",
      tags: ["Staff"],
      summary: "Email a new invitation link while the invitation is pending (409 once accepted)",
      request: { params: idParam },
      responses: {
        200: json(envelope(staffMemberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await resendInvitation(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/staff/{id}",
      tags: ["Staff"],
      summary:
        "Deactivate a staff member: staff roles removed, sessions ended (409 for the last organisation admin or yourself)",
      request: { params: idParam },
      responses: {
        200: json(envelope(staffMemberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await deactivateStaff(actorOf(c), c.req.valid("param").id) }, 200),
  );
