import { billingFrequencies } from "@gym/core/billing/frequency";
import { priceInput, priceListQuery, privateLinkInput, proRataRequest } from "@gym/core/price/schemas";
import {
  archivePrice,
  createAgeBypassLink,
  createPrice,
  createPrivateLink,
  deletePrice,
  listOfferingPrices,
  listOrganisationPrices,
  quoteProRata,
  restorePrice,
  updatePrice,
} from "@gym/core/price/service";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, json, listEnvelope } from "../respond";

const idParam = z.object({ id: z.string().min(1).max(64) });
const organisationIdParam = z.object({ organisationId: z.string().min(1).max(64) });
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});
/** Calls without a required body (archive, restore) still accept an empty JSON object. */
const optionalBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: false },
});

const frequency = z.enum(billingFrequencies);

export const privateLinkSchema = z
  .object({ id: z.string(), url: z.string(), age_bypass: z.boolean(), created_at: z.string() })
  .openapi("PrivateLink");

/** A price with the spec's computed fields (001 §3). Money in integer cents; formatted_* are en-NZ dollars. */
export const priceSchema = z
  .object({
    id: z.string(),
    offering_id: z.string(),
    offering: z.object({ id: z.string(), name: z.string() }),
    gym: z.null(),
    amount: z.number().int(),
    formatted_amount: z.string(),
    billing_frequency: frequency,
    frequency_label: z.string().openapi({ description: "one_off shows as PIF" }),
    label: z.string(),
    joining_fee: z.number().int().nullable(),
    formatted_joining_fee: z.string().nullable(),
    private: z.boolean(),
    private_links: z.array(privateLinkSchema),
    term_amount: z.number().int().nullable(),
    term_unit: z.enum(["weeks", "months", "years"]).nullable(),
    is_term_membership: z.boolean(),
    formatted_term: z.string().nullable(),
    membership_type: z.string(),
    total_value: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "A quote: the term starting today (Auckland)" }),
    formatted_total_value: z.string().nullable(),
    total_value_quoted_from: z.string().nullable(),
    surcharge: z.number().int(),
    formatted_surcharge: z.string(),
    amount_with_surcharge: z.number().int(),
    formatted_amount_with_surcharge: z.string(),
    grouping_unique_identifier: z.string(),
    subscriptions_count: z.number().int(),
    can_delete: z.boolean(),
    offered: z.boolean(),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Price");

const proRataSchema = z
  .object({
    price_id: z.string(),
    price_label: z.string(),
    offering: z.object({ id: z.string(), name: z.string() }),
    billing_frequency: frequency,
    frequency_label: z.string(),
    start_date: z.string(),
    billing_date: z.string(),
    is_pro_rata: z.boolean(),
    pro_rata_days: z.number().int(),
    period_days: z.number().int(),
    period_start: z.string(),
    pro_rata_amount: z.number().int(),
    joining_fee: z.number().int(),
    first_payment_date: z.string(),
    first_payment_total: z.number().int(),
    first_full_payment_date: z.string(),
    recurring_amount: z.number().int(),
    latest_billing_date: z.string(),
    formatted_pro_rata_amount: z.string(),
    formatted_joining_fee: z.string(),
    formatted_first_payment_total: z.string(),
    formatted_recurring_amount: z.string(),
    card_surcharge: z.number().int(),
    formatted_card_surcharge: z.string(),
    first_payment_total_with_card_surcharge: z.number().int(),
    formatted_first_payment_total_with_card_surcharge: z.string(),
  })
  .openapi("ProRata");

const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
const conflict = { description: "Conflict (has members, or archived)", content: errorResponses[404].content };

const list = <T>(data: T[]) => ({ data, meta: { next_cursor: null, per_page: data.length } });

/** Prices of offerings, private links, and the pro-rata quote (spec 001 §7). */
export const pricesRouter = createRouter()
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/prices",
      tags: ["Prices"],
      summary: "The organisation's prices with their offering (offered ones unless include_archived)",
      request: { params: idParam, query: priceListQuery },
      responses: { 200: json(listEnvelope(priceSchema)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) =>
      c.json(
        list(await listOrganisationPrices(actorOf(c), c.req.valid("param").id, c.req.valid("query"))),
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/offerings/{id}/prices",
      tags: ["Prices"],
      summary: "An offering's prices (not archived unless include_archived)",
      request: { params: idParam, query: priceListQuery },
      responses: { 200: json(listEnvelope(priceSchema)), 404: errorResponses[404] },
    }),
    async (c) =>
      c.json(list(await listOfferingPrices(actorOf(c), c.req.valid("param").id, c.req.valid("query"))), 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/offerings/{id}/prices",
      tags: ["Prices"],
      summary: "Add a price to an offering (admins; frequency must be enabled for the organisation)",
      request: { params: idParam, ...body(priceInput) },
      responses: {
        201: json(envelope(priceSchema), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
        409: conflict,
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
      request: { params: idParam, ...body(priceInput) },
      responses: {
        200: json(envelope(priceSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: conflict,
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
      request: { params: idParam, ...optionalBody(z.object({}).passthrough()) },
      responses: {
        200: json(envelope(priceSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: conflict,
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
        409: conflict,
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
      request: { params: idParam, ...body(proRataRequest) },
      responses: {
        200: json(envelope(proRataSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await quoteProRata(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/prices/{id}/private-links",
      tags: ["Prices"],
      summary: "A new unguessable join-site link opening registration with this price",
      request: { params: idParam, ...optionalBody(privateLinkInput) },
      responses: {
        201: json(envelope(privateLinkSchema.extend({ price_id: z.string() })), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
        409: conflict,
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
      request: { params: organisationIdParam, ...optionalBody(z.object({}).passthrough()) },
      responses: {
        201: json(envelope(privateLinkSchema), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) =>
      c.json({ data: await createAgeBypassLink(actorOf(c), c.req.valid("param").organisationId) }, 201),
  );
