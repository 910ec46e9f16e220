import {
  listMyGyms,
  putDestinationAccount,
  readGym,
  readPublicFile,
  setAkahuConfig,
  setBranchConfig,
  setTracksVisits,
  updateGym,
  uploadLogo,
} from "@gym/core/gym/settings";
import { z } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { actorOf, createRouter, publicRoute, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, json } from "../respond";

const idParam = z.object({ id: z.string().min(1).max(64) });
const maskedSecret = z.object({ set: z.boolean(), masked: z.string().nullable() });

export const gymListItem = z
  .object({
    id: z.string(),
    name: z.string(),
    selected: z.boolean(),
    role: z.enum(["admin", "personal_trainer"]).nullable(),
    staff_count: z.number().int(),
    members_count: z.number().int(),
  })
  .openapi("GymListItem");

export const gymSchema = z
  .object({
    id: z.string(),
    uuid: z.string(),
    name: z.string(),
    selected: z.boolean(),
    role: z.enum(["admin", "personal_trainer"]).nullable(),
    organisation: z.object({ id: z.string(), name: z.string() }),
    logo: z.string().nullable(),
    created_at: z.string(),
    price_change_notification_reply_to: z.string().nullable(),
    destination_account: z
      .object({ id: z.string(), name: z.string(), bank_account_number: z.string() })
      .nullable(),
    stripe_id: z.string().nullable(),
    has_payment_account: z.boolean(),
    tracks_visits: z.boolean(),
    place: z.object({ id: z.string(), name: z.string(), place_id: z.string() }).nullable(),
    doors: z.array(
      z.object({
        id: z.string(),
        integration_type: z.literal("kisi"),
        integration: z.object({
          id: z.string(),
          name: z.string(),
          door_id: z.string(),
          tracks_visits: z.boolean(),
        }),
      }),
    ),
    branch_app_id: z.string().nullable(),
    branch_key: z.string().nullable(),
    branch_secret: maskedSecret,
    akahu_app_token: z.string().nullable(),
    akahu_app_secret: maskedSecret,
    break_fee_basis_points: z.number().int().nullable(),
    card_surcharge_basis_points: z.number().int().nullable(),
    card_surcharge_fixed_cents: z.number().int().nullable(),
    break_fee_percentage: z.string(),
    staff_count: z.number().int(),
    members_count: z.number().int(),
  })
  .passthrough()
  .openapi("Gym");

/** Request bodies as documented; core validates them with the spec's messages (422). */
export const jsonBody = (schema: z.ZodType) => ({
  body: { content: { "application/json": { schema } }, required: true },
});
/**
 * A documented request body that the route does not validate itself: core parses it with the
 * spec's messages (so a blank number says "Value is required", not a type error).
 */
export const anyObject = (shape: Record<string, z.ZodType>, name: string) =>
  z
    .object(
      Object.fromEntries(
        Object.entries(shape).map(([key, schema]) => [
          key,
          z
            .unknown()
            .openapi({ description: `${schema.type}${schema.safeParse(null).success ? " or null" : ""}` }),
        ]),
      ),
    )
    .partial()
    .passthrough()
    .openapi(name);

export async function readJson(c: { req: { json: () => Promise<unknown> } }) {
  try {
    return await c.req.json();
  } catch {
    throw new HTTPException(400);
  }
}

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
      responses: { 200: json(envelope(z.array(gymListItem))) },
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
      request: {
        params: idParam,
        ...jsonBody(
          anyObject(
            {
              name: z.string(),
              price_change_notification_reply_to: z.string().nullable(),
              break_fee_basis_points: z.number().int().nullable(),
              card_surcharge_basis_points: z.number().int().nullable(),
              card_surcharge_fixed_cents: z.number().int().nullable(),
            },
            "GymInput",
          ),
        ),
      },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await updateGym(actorOf(c), c.req.valid("param").id, await readJson(c)) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{gymId}/destination-accounts/{accountId}",
      tags: ["Gyms"],
      summary: "Set the gym's destination bank account (accountId `new` when it has none yet)",
      request: {
        params: z.object({ gymId: z.string().min(1).max(64), accountId: z.string().min(1).max(64) }),
        ...jsonBody(
          anyObject(
            {
              name: z.string(),
              bank_account_number: z.string(),
              bank_account_number_confirmation: z.string(),
            },
            "DestinationAccountInput",
          ),
        ),
      },
      responses: gymAnswer,
    }),
    async (c) => {
      const { gymId, accountId } = c.req.valid("param");
      return c.json(
        { data: await putDestinationAccount(actorOf(c), gymId, accountId, await readJson(c)) },
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
      request: {
        params: idParam,
        ...jsonBody(anyObject({ tracks_visits: z.boolean() }, "TracksVisitsInput")),
      },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await setTracksVisits(actorOf(c), c.req.valid("param").id, await readJson(c)) }, 200),
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
      let form: FormData;
      try {
        form = await c.req.raw.formData();
      } catch {
        return c.json(
          {
            message: "Send the logo as multipart form data.",
            error: "validation_failed",
            errors: { file: ["Value is required"] },
          },
          422,
        );
      }
      const data = await uploadLogo(actorOf(c), c.req.valid("param").id, {
        collection: form.get("collection"),
        file: form.get("file"),
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
      request: {
        params: idParam,
        ...jsonBody(
          anyObject(
            { branch_app_id: z.string(), branch_key: z.string(), branch_secret: z.string().nullable() },
            "BranchConfigInput",
          ),
        ),
      },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await setBranchConfig(actorOf(c), c.req.valid("param").id, await readJson(c)) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/gyms/{id}/akahu-config",
      tags: ["Gyms"],
      summary: "The gym's own Akahu app (token, secret; a blank secret keeps the stored one)",
      request: {
        params: idParam,
        ...jsonBody(
          anyObject(
            { akahu_app_token: z.string(), akahu_app_secret: z.string().nullable() },
            "AkahuConfigInput",
          ),
        ),
      },
      responses: gymAnswer,
    }),
    async (c) =>
      c.json({ data: await setAkahuConfig(actorOf(c), c.req.valid("param").id, await readJson(c)) }, 200),
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
