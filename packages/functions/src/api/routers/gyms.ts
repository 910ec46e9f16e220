import {
  akahuConfigInput,
  branchConfigInput,
  destinationAccountInput,
  gymInput,
  gymListItemSchema,
  gymSchema,
  tracksVisitsInput,
} from "@gym/core/contract/gym";
import { setAkahuConfig } from "@gym/core/gym/akahu-app";
import { setBranchConfig } from "@gym/core/gym/branch";
import { readPublicFile, uploadLogo } from "@gym/core/gym/logo";
import { listMyGyms, readGym, setTracksVisits, updateGym } from "@gym/core/gym/settings";
import { putDestinationAccount } from "@gym/core/payment/destination-account";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, publicRoute, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, idParam, idParams, json, jsonBody, wholeList } from "../respond";

const gymAnswer = {
  200: json(envelope(gymSchema)),
  403: errorResponses[403],
  404: errorResponses[404],
  422: errorResponses[422],
};

/** Gyms: the list, a gym's settings and their changes (organisation admins; gym admins for their gyms). */
export const gymsRouter = createRouter()
  .openapi(
    userRoute({
      method: "get",
      path: "/gyms",
      tags: ["Gyms"],
      summary: "The gyms the user can reach in the current organisation, with staff and member counts",
      responses: { 200: json(wholeList(gymListItemSchema)) },
    }),
    async (c) => c.json({ data: await listMyGyms(actorOf(c)) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/gyms/{id}",
      tags: ["Gyms"],
      summary: "A gym's settings (secrets masked)",
      request: { params: idParam },
      responses: gymAnswer,
    }),
    async (c) => c.json({ data: await readGym(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{id}",
      tags: ["Gyms"],
      summary: "Change a gym's name, reply-to address and overrides of card surcharge and break fee",
      request: { params: idParam, ...jsonBody(gymInput) },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await updateGym(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{gymId}/destination-accounts/{accountId}",
      tags: ["Gyms"],
      summary: "Set the gym's destination bank account (accountId `new` when it has none yet)",
      request: { params: idParams("gymId", "accountId"), ...jsonBody(destinationAccountInput) },
      responses: gymAnswer,
    }),
    async (c) => {
      const { gymId, accountId } = c.req.valid("param");
      // Core parses the raw body again: the contract's schema turns the number into its stored form.
      return c.json(
        { data: await putDestinationAccount(actorOf(c), gymId, accountId, await c.req.json()) },
        200,
      );
    },
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{id}/tracks-visits",
      tags: ["Gyms"],
      summary: "Whether the gym records visits from door unlocks",
      request: { params: idParam, ...jsonBody(tracksVisitsInput) },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await setTracksVisits(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/gyms/{id}/logo",
      tags: ["Gyms"],
      summary:
        "Upload the gym's logo: multipart with collection=logo and file (PNG, JPEG or WebP, at most 5 MB)",
      request: { params: idParam },
      responses: gymAnswer,
    }),
    async (c) => {
      // Not multipart: core still checks the gym first (404 for another organisation's), then says the file is missing.
      const form = await c.req.raw.formData().catch(() => null);
      const data = await uploadLogo(actorOf(c), c.req.valid("param").id, {
        collection: form?.get("collection") ?? null,
        file: form?.get("file") ?? null,
      });
      return c.json({ data }, 200);
    },
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{id}/branch-config",
      tags: ["Gyms"],
      summary: "The gym's Branch app (app id, key, secret; a blank secret keeps the stored one)",
      request: { params: idParam, ...jsonBody(branchConfigInput) },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await setBranchConfig(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{id}/akahu-config",
      tags: ["Gyms"],
      summary: "The gym's own Akahu app (token, secret; a blank secret keeps the stored one)",
      request: { params: idParam, ...jsonBody(akahuConfigInput) },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await setAkahuConfig(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    publicRoute({
      method: "get",
      path: "/files/logos/{organisationId}/{gymId}/{file}",
      tags: ["Gyms"],
      summary: "A gym's logo (public, immutable: the name is the content's hash)",
      request: {
        params: z.object({
          organisationId: z.string().max(64),
          gymId: z.string().max(64),
          file: z.string().max(64),
        }),
      },
      responses: { 200: { description: "The image" }, 404: errorResponses[404] },
    }),
    async (c) => {
      const { organisationId, gymId, file } = c.req.valid("param");
      const stored = await readPublicFile(`logos/${organisationId}/${gymId}/${file}`);
      return c.body(stored.body as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": stored.contentType,
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      });
    },
  );
