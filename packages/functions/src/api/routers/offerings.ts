import { offeringInput, offeringStatusSchema } from "@gym/core/offering/schemas";
import {
  archiveOffering,
  createOffering,
  deleteOffering,
  getOffering,
  listGymOfferings,
  listOfferings,
  offeringOptions,
  uniqueMemberships,
  updateOffering,
} from "@gym/core/offering/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, json, listEnvelope } from "../respond";
import { priceSchema } from "./prices";

const idParam = z.object({ id: z.string().min(1).max(64) });
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

const offeringType = z.enum(["24_7", "limited_access"]);

/** An offering with the spec's computed fields (001 §3). Hours: days 1 (Monday) to 7, times HH:mm shown as h:mm a. */
export const offeringSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: offeringType,
    type_label: z.string(),
    all_gyms_access: z.boolean(),
    gyms: z.array(z.object({ id: z.string(), name: z.string() })),
    gym: z.null(),
    mandated: z.boolean(),
    hours_mandated: z.boolean(),
    prices_mandated: z.boolean(),
    hours: z.array(
      z.object({
        id: z.string(),
        day: z.number().int(),
        day_name: z.string(),
        open_at: z.string(),
        close_at: z.string(),
        open_at_formatted: z.string(),
        close_at_formatted: z.string(),
      }),
    ),
    hours_formatted: z.string(),
    prices: z.array(priceSchema),
    prices_count: z.number().int(),
    subscriptions_count: z.number().int(),
    can_delete: z.boolean(),
    title_formatted: z.string(),
    subtitle_formatted: z.string(),
    frequencies_formatted: z.string(),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Offering");

const option = z.object({ value: z.string(), label: z.string() });
const optionsSchema = z
  .object({
    enable_offerings: z.boolean(),
    can_manage: z.boolean(),
    types: z.array(option),
    billing_frequencies: z.array(option),
    term_units: z.array(option),
    gyms: z.array(z.object({ id: z.string(), name: z.string() })),
  })
  .openapi("OfferingOptions");

const conflict = { description: "Conflict (has members)", content: errorResponses[404].content };
const list = <T>(data: T[]) => ({ data, meta: { next_cursor: null, per_page: data.length } });

/** Offerings (membership plans) of the current organisation (spec 001 §7). */
export const offeringsRouter = createRouter()
  .openapi(
    userRoute({
      method: "get",
      path: "/gyms/{gym_id}/offerings",
      tags: ["Offerings"],
      summary: "What is offered at a gym (staff also see private prices; members only public ones)",
      request: { params: z.object({ gym_id: z.string().min(1).max(64) }) },
      responses: {
        200: json(listEnvelope(offeringSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json(list(await listGymOfferings(actorOf(c), c.req.valid("param").gym_id)), 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offerings",
      tags: ["Offerings"],
      summary: "The organisation's offerings with their prices (status: active, archived or all)",
      request: { query: z.object({ status: offeringStatusSchema.optional() }) },
      responses: { 200: json(listEnvelope(offeringSchema)), 403: errorResponses[403] },
    }),
    async (c) => c.json(list(await listOfferings(actorOf(c), c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offering-options",
      tags: ["Offerings"],
      summary: "What the offering and price forms may offer: types, billing frequencies, term units, gyms",
      responses: { 200: json(envelope(optionsSchema)) },
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
      request: body(offeringInput),
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
      request: { params: idParam, ...body(offeringInput) },
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
        200: json(envelope(z.object({ id: z.string(), deleted: z.literal(true) }))),
        403: errorResponses[403],
        404: errorResponses[404],
        409: conflict,
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
      request: { params: z.object({ gym: z.string().min(1).max(64), offering: z.string().min(1).max(64) }) },
      responses: {
        200: json(
          envelope(
            z.object({ gym_id: z.string(), offering_id: z.string(), unique_memberships: z.number().int() }),
          ),
        ),
        404: errorResponses[404],
      },
    }),
    async (c) => {
      const { gym, offering } = c.req.valid("param");
      return c.json({ data: await uniqueMemberships(actorOf(c), gym, offering) }, 200);
    },
  );
