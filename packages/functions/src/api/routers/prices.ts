import { deletedSchema } from "@gym/core/contract/http";
import {
  newPrivateLinkSchema,
  priceInput,
  priceListQuery,
  priceSchema,
  privateLinkInput,
  privateLinkSchema,
  proRataRequest,
  proRataSchema,
} from "@gym/core/contract/price";
import { createAgeBypassLink, createPrivateLink } from "@gym/core/price/links";
import { quoteProRata } from "@gym/core/price/pro-rata";
import {
  archivePrice,
  createPrice,
  deletePrice,
  listOfferingPrices,
  listOrganisationPrices,
  restorePrice,
  updatePrice,
} from "@gym/core/price/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import {
  envelope,
  errorResponses,
  idParam,
  idParams,
  json,
  jsonBody,
  optionalJsonBody,
  whole,
  wholeList,
} from "../respond";

/** Calls without options (restore, age-bypass links) accept an empty JSON object. */
const noOptions = z.object({}).passthrough();

/** Prices of offerings, private links, and the pro-rata quote (spec 001 §7). */
export const pricesRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/prices",
      tags: ["Prices"],
      summary:
        "The organisation's prices with their offering, answered whole (offered ones unless include_archived)",
      request: { params: idParam, query: priceListQuery },
      responses: { 200: json(wholeList(priceSchema)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) =>
      c.json(
        whole(await listOrganisationPrices(actorOf(c), c.req.valid("param").id, c.req.valid("query"))),
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offerings/{id}/prices",
      tags: ["Prices"],
      summary: "An offering's prices, answered whole (not archived unless include_archived)",
      request: { params: idParam, query: priceListQuery },
      responses: { 200: json(wholeList(priceSchema)), 404: errorResponses[404] },
    }),
    async (c) =>
      c.json(whole(await listOfferingPrices(actorOf(c), c.req.valid("param").id, c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/offerings/{id}/prices",
      tags: ["Prices"],
      summary: "Add a price to an offering (admins; frequency must be enabled for the organisation)",
      request: { params: idParam, ...jsonBody(priceInput) },
      responses: {
        201: json(envelope(priceSchema), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await createPrice(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/prices/{id}",
      tags: ["Prices"],
      summary: "Change a price (only `private` once anyone subscribed)",
      request: { params: idParam, ...jsonBody(priceInput) },
      responses: {
        200: json(envelope(priceSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await updatePrice(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/prices/{id}/archive",
      tags: ["Prices"],
      summary: "Archive a price: no longer offered to new members",
      request: { params: idParam },
      responses: { 200: json(envelope(priceSchema)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await archivePrice(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/prices/{id}/restore",
      tags: ["Prices"],
      summary: "Restore an archived price (not while its offering is archived)",
      request: { params: idParam, ...optionalJsonBody(noOptions) },
      responses: {
        200: json(envelope(priceSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await restorePrice(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/prices/{id}",
      tags: ["Prices"],
      summary: "Delete a price nobody ever subscribed to (409 otherwise: archive it)",
      request: { params: idParam },
      responses: {
        200: json(envelope(deletedSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await deletePrice(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/prices/{id}/pro-rata",
      tags: ["Prices"],
      summary:
        "The first payment for a start date and billing date (staff: any price; members: offered or linked prices)",
      request: { params: idParam, ...jsonBody(proRataRequest) },
      responses: {
        200: json(envelope(proRataSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      // Staff quotes (the calculator) are admins' work, a member quotes their own first payment:
      // the route's row (route-policy.ts "not-trainer") refuses a trainer before this runs.
      return c.json(
        { data: await quoteProRata(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
        200,
      );
    },
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/prices/{id}/private-links",
      tags: ["Prices"],
      summary: "A new unguessable join-site link opening registration with this price",
      request: { params: idParam, ...optionalJsonBody(privateLinkInput) },
      responses: {
        201: json(envelope(newPrivateLinkSchema), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json(
        { data: await createPrivateLink(actorOf(c), c.req.valid("param").id, c.req.valid("json") ?? {}) },
        201,
      ),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/organisations/{organisationId}/age-bypass-links",
      tags: ["Prices"],
      summary: "A new join-site link that lets a member under the minimum age register",
      request: { params: idParams("organisationId"), ...optionalJsonBody(noOptions) },
      responses: {
        201: json(envelope(privateLinkSchema), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) =>
      c.json({ data: await createAgeBypassLink(actorOf(c), c.req.valid("param").organisationId) }, 201),
  );
