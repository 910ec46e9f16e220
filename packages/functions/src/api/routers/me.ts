import { switchGym, switchOrganisation } from "@gym/core/auth/me";
import { currentUserWithPaymentTypes } from "@gym/core/payment-type/current-user";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, userRoute } from "../context";
import { envelope, errorResponses, json } from "../respond";

const idParam = z.object({ id: z.string().min(1).max(64) });

const currentUserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    organisations: z.array(z.object({ id: z.string(), name: z.string() })),
    current_organisation: z
      .object({
        id: z.string(),
        name: z.string(),
        multi_gym: z.boolean(),
        role: z.enum(["admin"]).nullable(),
      })
      .nullable(),
    gyms: z.array(z.object({ id: z.string(), name: z.string(), role: z.string().nullable() })),
    current_gym: z.object({ id: z.string(), role: z.string().nullable() }).nullable(),
    is_staff: z.boolean(),
  })
  .passthrough()
  .openapi("CurrentUser");

/** The signed-in user, and moving between their organisations and gyms. */
export const meRouter = createRouter()
  .openapi(
    userRoute({
      method: "get",
      path: "/me",
      tags: ["Auth"],
      summary: "The current user (spec 000 §3)",
      responses: {
        200: json(envelope(currentUserSchema)),
        400: errorResponses[400],
        401: errorResponses[401],
      },
    }),
    async (c) => c.json({ data: await currentUserWithPaymentTypes(actorOf(c)) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/organisations/{id}/switch",
      tags: ["Organisations"],
      summary: "Make another of the user's organisations current",
      request: { params: idParam },
      responses: { 200: json(envelope(currentUserSchema)), 404: errorResponses[404] },
    }),
    async (c) => {
      const actor = await switchOrganisation(actorOf(c), c.req.valid("param").id);
      return c.json({ data: await currentUserWithPaymentTypes(actor) }, 200);
    },
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/gyms/{id}/switch",
      tags: ["Gyms"],
      summary: "Make another of the user's gyms current",
      request: { params: idParam },
      responses: { 200: json(envelope(currentUserSchema)), 404: errorResponses[404] },
    }),
    async (c) => {
      const actor = await switchGym(actorOf(c), c.req.valid("param").id);
      return c.json({ data: await currentUserWithPaymentTypes(actor) }, 200);
    },
  );
