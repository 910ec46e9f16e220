import { akahuAuthUrl, akahuExchange, akahuSyncAccounts } from "@gym/core/gym/akahu";
import {
  finishStripeConnect,
  linkPlace,
  listAccessPlaces,
  listPlaceDoors,
  startStripeConnect,
} from "@gym/core/gym/settings";
import {
  connectAccessControl,
  getAccessControlIntegration,
  rotateKisiWebhookSecret,
} from "@gym/core/organisation/settings";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, json } from "../respond";
import { anyObject, gymSchema, jsonBody, readJson } from "./gyms";

const idParam = z.object({ id: z.string().min(1).max(64) });
const urlAnswer = envelope(z.object({ url: z.string() }));
const problems = { 403: errorResponses[403], 404: errorResponses[404], 422: errorResponses[422] };

const integration = z
  .object({
    id: z.string(),
    integration_type: z.literal("kisi"),
    api_key: z.object({ set: z.boolean(), masked: z.string().nullable() }),
    connected_at: z.string(),
    webhook_secret_set_at: z.string().nullable(),
    /** Only in the answer that made the secret (first connection, rotation): shown once. */
    webhook_url: z.string().optional(),
  })
  .openapi("AccessControlIntegration");
const place = z
  .object({
    id: z.string(),
    name: z.string(),
    place_id: z.string(),
    gym_id: z.string().nullable(),
    gym_name: z.string().nullable(),
  })
  .openapi("AccessPlace");
const door = z
  .object({
    id: z.string(),
    integration_type: z.literal("kisi"),
    integration: z.object({
      id: z.string(),
      name: z.string(),
      door_id: z.string(),
      tracks_visits: z.boolean(),
    }),
  })
  .openapi("DoorIntegration");
const akahuAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    formatted_account: z.string().nullable(),
    type: z.string(),
    status: z.string(),
    connection: z.string().nullable(),
  })
  .openapi("AkahuAccount");

/** Provider connections: Stripe Connect, Akahu consent, Kisi door access. */
export const providersRouter = createRouter()
  .openapi(
    staffRoute({
      method: "post",
      path: "/gyms/{id}/stripe/redirect",
      tags: ["Providers"],
      summary: "Start connecting the gym's Stripe account: the provider URL with a signed ten-minute state",
      request: { params: idParam },
      responses: { 200: json(urlAnswer), ...problems },
    }),
    async (c) => c.json({ data: await startStripeConnect(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/stripe/exchange",
      tags: ["Providers"],
      summary: "Finish connecting: verify the state, exchange the code, store the connected account",
      request: jsonBody(anyObject({ code: z.string(), state: z.string() }, "StripeExchangeInput")),
      responses: { 200: json(envelope(gymSchema)), ...problems },
    }),
    async (c) => c.json({ data: await finishStripeConnect(actorOf(c), await readJson(c)) }, 200),
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/akahu/auth-url",
      tags: ["Providers"],
      summary: "Where to send a person to connect their bank (Akahu enduring consent)",
      request: {
        query: z.object({
          gym_id: z.string().max(64).optional(),
          redirect_uri: z.string().max(500).optional(),
          email: z.string().max(254).optional(),
        }),
      },
      responses: { 200: json(urlAnswer), ...problems },
    }),
    async (c) => c.json({ data: await akahuAuthUrl(actorOf(c), c.req.valid("query")) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/akahu/exchange",
      tags: ["Providers"],
      summary: "Exchange the code from Akahu for the person's bank connection",
      request: jsonBody(anyObject({ code: z.string(), state: z.string() }, "AkahuExchangeInput")),
      responses: {
        200: json(envelope(z.object({ connected: z.boolean(), gym_id: z.string() }))),
        ...problems,
      },
    }),
    async (c) => c.json({ data: await akahuExchange(actorOf(c), await readJson(c)) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/akahu/sync-accounts",
      tags: ["Providers"],
      summary: "Read the person's bank accounts from Akahu",
      responses: { 200: json(envelope(z.array(akahuAccount))), ...problems },
    }),
    async (c) => c.json({ data: await akahuSyncAccounts(actorOf(c)) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/access-control/integration",
      tags: ["Providers"],
      summary: "The organisation's door access integration (key masked), or null",
      request: { params: idParam },
      responses: { 200: json(envelope(integration.nullable())), ...problems },
    }),
    async (c) =>
      c.json({ data: await getAccessControlIntegration(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/organisations/{id}/access-control/integration",
      tags: ["Providers"],
      summary: "Connect Kisi with an API key (checked with Kisi, stored encrypted)",
      request: {
        params: idParam,
        ...jsonBody(
          anyObject({ integration_type: z.literal("kisi"), api_key: z.string() }, "AccessControlInput"),
        ),
      },
      responses: { 200: json(envelope(integration.nullable())), ...problems },
    }),
    async (c) =>
      c.json(
        { data: await connectAccessControl(actorOf(c), c.req.valid("param").id, await readJson(c)) },
        200,
      ),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/organisations/{id}/access-control/webhook-secret",
      tags: ["Providers"],
      summary: "Replace the Kisi webhook secret; answers the new webhook URL (shown once)",
      request: { params: idParam },
      responses: {
        200: json(envelope(integration)),
        409: { description: "Kisi is not connected" },
        ...problems,
      },
    }),
    async (c) => c.json({ data: await rotateKisiWebhookSecret(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/access-control/places",
      tags: ["Providers"],
      summary: "Kisi's places, each with the gym it is linked to",
      request: { params: idParam },
      responses: { 200: json(envelope(z.array(place))), ...problems },
    }),
    async (c) => c.json({ data: await listAccessPlaces(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/access-control/places/{placeId}/doors",
      tags: ["Providers"],
      summary: "A place's doors (Kisi locks) with tracks_visits",
      request: { params: z.object({ id: z.string().min(1).max(64), placeId: z.string().min(1).max(64) }) },
      responses: { 200: json(envelope(z.array(door))), ...problems },
    }),
    async (c) => {
      const { id, placeId } = c.req.valid("param");
      return c.json({ data: await listPlaceDoors(actorOf(c), id, placeId) }, 200);
    },
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/gyms/{id}/access-control/places",
      tags: ["Providers"],
      summary: "Link a Kisi place to the gym (null unlinks) and choose which doors track visits",
      request: {
        params: idParam,
        ...jsonBody(
          anyObject(
            {
              place_id: z.string().nullable(),
              doors: z.array(z.object({ id: z.string(), tracks_visits: z.boolean() })),
            },
            "LinkPlaceInput",
          ),
        ),
      },
      responses: { 200: json(envelope(gymSchema)), ...problems },
    }),
    async (c) =>
      c.json({ data: await linkPlace(actorOf(c), c.req.valid("param").id, await readJson(c)) }, 200),
  );
