import {
  accessPlaceSchema,
  akahuAccountSchema,
  akahuAuthUrlQuery,
  akahuExchangeInput,
  akahuExchangeSchema,
  doorSchema,
  gymSchema,
  linkPlaceInput,
  stripeExchangeInput,
} from "@gym/core/contract/gym";
import { urlSchema } from "@gym/core/contract/http";
import {
  accessControlIntegrationInput,
  accessControlIntegrationSchema,
} from "@gym/core/contract/organisation";
import { linkPlace, listAccessPlaces, listPlaceDoors } from "@gym/core/gym/access-control";
import { finishStripeConnect, startStripeConnect } from "@gym/core/gym/stripe-connect";
import {
  connectAccessControl,
  getAccessControlIntegration,
  rotateKisiWebhookSecret,
} from "@gym/core/organisation/settings";
import { akahuAuthUrl, akahuExchange, akahuSyncAccounts } from "@gym/core/payment-type/bank-connection";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, idParam, idParams, json, jsonBody, wholeList } from "../respond";

const problems = { 403: errorResponses[403], 404: errorResponses[404], 422: errorResponses[422] };

/** Provider connections: Stripe Connect, Akahu consent, Kisi door access. */
export const providersRouter = createRouter()
  .openapi(
    staffRoute({
      method: "post",
      path: "/gyms/{id}/stripe/redirect",
      tags: ["Providers"],
      summary: "Start connecting the gym's Stripe account: the provider URL with a signed ten-minute state",
      request: { params: idParam },
      responses: { 200: json(envelope(urlSchema)), ...problems },
    }),
    async (c) => c.json({ data: await startStripeConnect(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/stripe/exchange",
      tags: ["Providers"],
      summary: "Finish connecting: verify the state, exchange the code, store the connected account",
      request: jsonBody(stripeExchangeInput),
      responses: { 200: json(envelope(gymSchema)), ...problems },
    }),
    async (c) => c.json({ data: await finishStripeConnect(actorOf(c), c.req.valid("json")) }, 200),
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/akahu/auth-url",
      tags: ["Providers"],
      summary: "Where to send a person to connect their bank (Akahu enduring consent)",
      request: { query: akahuAuthUrlQuery },
      responses: { 200: json(envelope(urlSchema)), ...problems, 409: errorResponses[409] },
    }),
    async (c) => c.json({ data: await akahuAuthUrl(actorOf(c), c.req.valid("query")) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/akahu/exchange",
      tags: ["Providers"],
      summary: "Exchange the code from Akahu for the person's bank connection",
      request: jsonBody(akahuExchangeInput),
      responses: { 200: json(envelope(akahuExchangeSchema)), ...problems, 409: errorResponses[409] },
    }),
    async (c) => c.json({ data: await akahuExchange(actorOf(c), c.req.valid("json")) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/akahu/sync-accounts",
      tags: ["Providers"],
      summary: "Read the person's bank accounts from Akahu",
      responses: { 200: json(wholeList(akahuAccountSchema)), ...problems, 409: errorResponses[409] },
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
      responses: { 200: json(envelope(accessControlIntegrationSchema.nullable())), ...problems },
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
      request: { params: idParam, ...jsonBody(accessControlIntegrationInput) },
      responses: { 200: json(envelope(accessControlIntegrationSchema.nullable())), ...problems },
    }),
    async (c) =>
      c.json(
        { data: await connectAccessControl(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
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
        200: json(envelope(accessControlIntegrationSchema)),
        409: errorResponses[409],
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
      responses: { 200: json(wholeList(accessPlaceSchema)), ...problems, 409: errorResponses[409] },
    }),
    async (c) => c.json({ data: await listAccessPlaces(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{id}/access-control/places/{placeId}/doors",
      tags: ["Providers"],
      summary: "A place's doors (Kisi locks) with tracks_visits",
      request: { params: idParams("id", "placeId") },
      responses: { 200: json(wholeList(doorSchema)), ...problems, 409: errorResponses[409] },
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
      request: { params: idParam, ...jsonBody(linkPlaceInput) },
      responses: { 200: json(envelope(gymSchema)), ...problems, 409: errorResponses[409] },
    }),
    async (c) =>
      c.json({ data: await linkPlace(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  );
