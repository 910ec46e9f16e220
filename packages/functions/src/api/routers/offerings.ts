import { deletedSchema } from "@gym/core/contract/http";
import {
  offeringInput,
  offeringListQuery,
  offeringOptionsSchema,
  offeringSchema,
  uniqueMembershipsSchema,
} from "@gym/core/contract/offering";
import {
  archiveOffering,
  createOffering,
  deleteOffering,
  getOffering,
  listGymOfferings,
  listOfferings,
  offeringOptions,
  updateOffering,
} from "@gym/core/offering/service";
import { uniqueMemberships } from "@gym/core/offering/unique-memberships";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, idParam, idParams, json, jsonBody, whole, wholeList } from "../respond";

/** Offerings (membership plans) of the current organisation (spec 001 §7). */
export const offeringsRouter = createRouter()
  .openapi(
    userRoute({
      method: "get",
      path: "/gyms/{gym_id}/offerings",
      tags: ["Offerings"],
      summary:
        "What is offered at a gym, answered whole (staff also see private prices; members only public ones)",
      request: { params: idParams("gym_id") },
      responses: {
        200: json(wholeList(offeringSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json(whole(await listGymOfferings(actorOf(c), c.req.valid("param").gym_id)), 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offerings",
      tags: ["Offerings"],
      summary:
        "The organisation's offerings with their prices, answered whole (status: active, archived or all)",
      request: { query: offeringListQuery },
      responses: { 200: json(wholeList(offeringSchema)), 403: errorResponses[403] },
    }),
    async (c) => c.json(whole(await listOfferings(actorOf(c), c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offering-options",
      tags: ["Offerings"],
      summary: "What the offering and price forms may offer: types, billing frequencies, term units, gyms",
      responses: { 200: json(envelope(offeringOptionsSchema)) },
    }),
    async (c) => c.json({ data: await offeringOptions(actorOf(c)) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offerings/{id}",
      tags: ["Offerings"],
      summary: "One offering with its hours and all its prices",
      request: { params: idParam },
      responses: { 200: json(envelope(offeringSchema)), 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await getOffering(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/offerings",
      tags: ["Offerings"],
      summary: "Create an offering (admins; type must be allowed by the organisation's offering permissions)",
      request: jsonBody(offeringInput),
      responses: {
        201: json(envelope(offeringSchema), "Created"),
        403: errorResponses[403],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await createOffering(actorOf(c), c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/offerings/{id}",
      tags: ["Offerings"],
      summary: "Change an offering (the whole offering is sent)",
      request: { params: idParam, ...jsonBody(offeringInput) },
      responses: {
        200: json(envelope(offeringSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await updateOffering(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/offerings/{id}/archive",
      tags: ["Offerings"],
      summary: "Archive an offering: no longer offered to new members",
      request: { params: idParam },
      responses: { 200: json(envelope(offeringSchema)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await archiveOffering(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/offerings/{id}",
      tags: ["Offerings"],
      summary: "Delete an offering none of whose prices was ever subscribed to (409 otherwise: archive it)",
      request: { params: idParam },
      responses: {
        200: json(envelope(deletedSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await deleteOffering(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/gyms/{gym}/offerings/{offering}/unique-memberships",
      tags: ["Offerings"],
      summary: "How many distinct members hold a subscription to the offering at the gym",
      request: { params: idParams("gym", "offering") },
      responses: {
        200: json(envelope(uniqueMembershipsSchema)),
        404: errorResponses[404],
      },
    }),
    async (c) => {
      const { gym, offering } = c.req.valid("param");
      return c.json({ data: await uniqueMemberships(actorOf(c), gym, offering) }, 200);
    },
  );
