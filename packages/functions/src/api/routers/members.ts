import { deletedSchema } from "@gym/core/contract/http";
import {
  memberActivityQuery,
  memberActivitySchema,
  memberExportBody,
  memberListItemSchema,
  memberListQuery,
  memberSchema,
  memberUpdateInput,
  searchInput,
  searchResultSchema,
} from "@gym/core/contract/member";
import { listMemberActivity } from "@gym/core/member/activity-list";
import { deleteMember, restoreMember } from "@gym/core/member/delete";
import { exportMembers } from "@gym/core/member/export";
import { listMembers } from "@gym/core/member/list";
import { readMember } from "@gym/core/member/read";
import { searchMembers } from "@gym/core/member/search";
import { updateMember } from "@gym/core/member/update";
import { actorOf, createRouter, staffRoute } from "../context";
import {
  envelope,
  errorResponses,
  exportResponse,
  idParam,
  json,
  jsonBody,
  optionalJsonBody,
  paged,
  pageEnvelope,
  redirectToExport,
  wholeList,
} from "../respond";

/** Members (spec 001 §7 Members) and the top bar's global search. docs/members.md. */
export const membersRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/members",
      tags: ["Members"],
      summary:
        "The organisation's members sorted by name or join date, filtered by membership state, gym, offering, price, tag and payment type; trainers see their gyms' members",
      request: { query: memberListQuery },
      responses: {
        200: json(pageEnvelope(memberListItemSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json(paged(await listMembers(actorOf(c), c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/members/export",
      tags: ["Members"],
      summary:
        "The filtered members list as CSV (dates en-NZ Pacific/Auckland), written page by page to the uploads store; answers 303 to its short-lived download address; admins",
      request: optionalJsonBody(memberExportBody),
      responses: {
        ...exportResponse,
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => redirectToExport((await exportMembers(actorOf(c), c.req.valid("json"))).location) as never,
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}",
      tags: ["Members"],
      summary: "One member (spec 001 §3) with their latest subscription and its derived states",
      request: { params: idParam },
      responses: {
        200: json(envelope(memberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await readMember(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/members/{id}",
      tags: ["Members"],
      summary:
        "Edit a member's profile, contact, emergency contact, address, notes, tags and notification settings (admins of their gym); each change is logged in their activity",
      request: { params: idParam, ...jsonBody(memberUpdateInput) },
      responses: {
        200: json(envelope(memberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await updateMember(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/members/{id}",
      tags: ["Members"],
      summary:
        "Soft-delete a member (deleted_at; out of the list and search); organisation admins; 409 while their membership still charges",
      request: { params: idParam },
      responses: {
        200: json(envelope(deletedSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await deleteMember(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/members/{id}/restore",
      tags: ["Members"],
      summary: "Restore a deleted member; organisation admins",
      request: { params: idParam },
      responses: {
        200: json(envelope(memberSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await restoreMember(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/members/{id}/activity",
      tags: ["Members"],
      summary:
        "The member's activity log newest first: sign-up, payments, pauses, cancellations, price changes and staff edits with who did them",
      request: { params: idParam, query: memberActivityQuery },
      responses: {
        200: json(pageEnvelope(memberActivitySchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json(paged(await listMemberActivity(actorOf(c), c.req.valid("param").id, c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/search",
      tags: ["Members"],
      summary:
        "Global search: up to 10 members whose name words or email start with the words typed (case and accents ignored), answered whole",
      request: jsonBody(searchInput),
      responses: {
        200: json(wholeList(searchResultSchema)),
        403: errorResponses[403],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await searchMembers(actorOf(c), c.req.valid("json")) }, 200),
  );
