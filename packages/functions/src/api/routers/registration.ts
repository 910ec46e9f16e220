import { createHash } from "node:crypto";
import { paymentTypeSchema } from "@gym/core/contract/payment";
import {
  bankAccountChoiceInput,
  cardSaveInput,
  cardSetupSchema,
  joinOptionsQuery,
  joinOptionsSchema,
  membershipChoiceInput,
  registeredSchema,
  registerFieldsInput,
  registerFieldsSchema,
  registerInput,
  registrationSettingsInput,
  registrationSettingsSchema,
  registrationStateSchema,
  uniqueEmailInput,
  uniqueEmailSchema,
} from "@gym/core/contract/registration";
import { chooseMembership } from "@gym/core/registration/choose-membership";
import { joinOptions, readRegistrationSettings, setRegistrationSettings } from "@gym/core/registration/join";
import { saveBankAccount, saveCard, startCard } from "@gym/core/registration/payment-method";
import { readProfilePicture, uploadProfilePicture } from "@gym/core/registration/profile-picture";
import { saveRegisterFields } from "@gym/core/registration/register-fields";
import { checkUniqueEmail, register } from "@gym/core/registration/service";
import { registrationState } from "@gym/core/registration/state";
import { PUBLIC_SHORT_CACHE } from "@gym/core/security/headers";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, publicRoute, staffRoute, userRoute } from "../context";
import { clientAddress, setSessionCookie } from "../middleware/auth";
import { envelope, errorResponses, idParams, json, jsonBody } from "../respond";

const client = (c: Parameters<typeof clientAddress>[0]) => ({
  ip: clientAddress(c),
  user_agent: c.req.header("user-agent"),
});

/** The join site (spec 000 §4, §7; 001 §7 Registration-side); docs/registration.md. */
/** A stored photo as the browser gets it: private to the signed-in viewer, never sniffed. */
const photo = (stored: Awaited<ReturnType<typeof readProfilePicture>>) =>
  new Response(stored.body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "Content-Type": stored.contentType,
      "Cache-Control": "private, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });

export const registrationRouter = createRouter()
  .openapi(
    publicRoute({
      method: "get",
      path: "/join",
      tags: ["Registration"],
      summary:
        "What a join link offers: the gym (by uuid), its offerings and public prices, a private link's price, the minimum age",
      request: { query: joinOptionsQuery },
      responses: {
        200: json(envelope(joinOptionsSchema)),
        304: { description: "Not modified: the If-None-Match ETag is the answer's" },
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => {
      // Public and the same for everyone (no session read): cacheable for a minute, with an ETag.
      const body = JSON.stringify({ data: await joinOptions(c.req.valid("query")) });
      const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
      c.header("Cache-Control", PUBLIC_SHORT_CACHE);
      c.header("ETag", etag);
      const asked = c.req
        .header("if-none-match")
        ?.split(",")
        .map((tag) => tag.trim().replace(/^W\//, ""));
      if (asked?.includes(etag)) return c.body(null, 304);
      return c.json(JSON.parse(body), 200);
    },
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/unique-email",
      tags: ["Registration"],
      summary: "Whether an email is free to register (and whether it was a member of the gym's organisation)",
      request: jsonBody(uniqueEmailInput),
      responses: {
        200: json(envelope(uniqueEmailSchema)),
        422: errorResponses[422],
        429: errorResponses[429],
      },
    }),
    async (c) => c.json({ data: await checkUniqueEmail(c.req.valid("json"), client(c)) }, 200),
  )
  .openapi(
    publicRoute({
      method: "post",
      path: "/register",
      tags: ["Registration"],
      summary:
        "Create a member at a gym with their chosen price and start date; starts a session waiting for the emailed code",
      request: jsonBody(registerInput),
      responses: {
        201: json(envelope(registeredSchema), "Created"),
        422: errorResponses[422],
        429: errorResponses[429],
      },
    }),
    async (c) => {
      const { token, email } = await register(c.req.valid("json"), client(c));
      setSessionCookie(c, token);
      return c.json({ data: { two_factor_required: true as const, email } }, 201);
    },
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/me/registration",
      tags: ["Registration"],
      summary:
        "The member's registration state: the step the join site resumes at, their choices and payment types",
      responses: {
        200: json(envelope(registrationStateSchema)),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (c) => c.json({ data: await registrationState(actorOf(c)) }, 200),
  )
  .openapi(
    userRoute({
      method: "put",
      path: "/me/registration",
      tags: ["Registration"],
      summary:
        "A signed-in member chooses a membership at a gym (rejoining, or changing their choice before confirming); answers the new registration state",
      request: jsonBody(membershipChoiceInput),
      responses: {
        200: json(envelope(registrationStateSchema)),
        400: errorResponses[400],
        403: errorResponses[403],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await chooseMembership(actorOf(c), c.req.valid("json")) }, 200),
  )
  .openapi(
    userRoute({
      method: "put",
      path: "/me/register-fields",
      tags: ["Registration"],
      summary:
        "The member's address, emergency contact, confidence, how they heard of the gym and notifications",
      request: jsonBody(registerFieldsInput),
      responses: { 200: json(envelope(registerFieldsSchema)), 422: errorResponses[422] },
    }),
    async (c) => c.json({ data: await saveRegisterFields(actorOf(c), c.req.valid("json")) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/profile-picture",
      tags: ["Registration"],
      summary: "The member's photo: multipart with file (JPEG, PNG or WebP, at most 5 MB)",
      responses: {
        200: json(envelope(z.object({ profile_picture: z.string() }))),
        422: errorResponses[422],
      },
    }),
    async (c) => {
      const form = await c.req.raw.formData().catch(() => null);
      return c.json({ data: await uploadProfilePicture(actorOf(c), form?.get("file") ?? null) }, 200);
    },
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/files/profile-pictures/{organisationId}/{userId}/{file}",
      tags: ["Registration"],
      summary:
        "A profile photo given to one organisation, for its owner and that organisation's staff (docs/data-model.md)",
      request: {
        params: z.object({
          organisationId: z.string().max(64),
          userId: z.string().max(64),
          file: z.string().max(64),
        }),
      },
      responses: { 200: { description: "The image" }, 404: errorResponses[404] },
    }),
    async (c) => photo(await readProfilePicture(actorOf(c), c.req.valid("param"))),
  )
  .openapi(
    userRoute({
      method: "get",
      path: "/files/profile-pictures/{userId}/{file}",
      tags: ["Registration"],
      summary:
        "A profile photo from before photos were per organisation, for its owner and the staff of an organisation whose record names it",
      request: { params: z.object({ userId: z.string().max(64), file: z.string().max(64) }) },
      responses: { 200: { description: "The image" }, 404: errorResponses[404] },
    }),
    async (c) => photo(await readProfilePicture(actorOf(c), c.req.valid("param"))),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/payment-types/card/setup",
      tags: ["Registration"],
      summary:
        "Start saving a card: a SetupIntent on the gym's connected Stripe account (locally also the simulated card form)",
      responses: {
        200: json(envelope(cardSetupSchema)),
        404: errorResponses[404],
        409: errorResponses[409],
      },
    }),
    async (c) => c.json({ data: await startCard(actorOf(c)) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/payment-types/card",
      tags: ["Registration"],
      summary: "Save the card of a confirmed SetupIntent as the member's default payment type",
      request: jsonBody(cardSaveInput),
      responses: {
        201: json(envelope(paymentTypeSchema), "Created"),
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await saveCard(actorOf(c), c.req.valid("json")) }, 201),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/payment-types/bank-account",
      tags: ["Registration"],
      summary: "Make one of the member's synced Akahu accounts their default payment type (bank account)",
      request: jsonBody(bankAccountChoiceInput),
      responses: {
        201: json(envelope(paymentTypeSchema), "Created"),
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await saveBankAccount(actorOf(c), c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/organisations/{organisationId}/registration-settings",
      tags: ["Registration"],
      summary: "The organisation's minimum age to join online (default 16)",
      request: { params: idParams("organisationId") },
      responses: {
        200: json(envelope(registrationSettingsSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
      },
    }),
    async (c) =>
      c.json({ data: await readRegistrationSettings(actorOf(c), c.req.valid("param").organisationId) }, 200),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/organisations/{organisationId}/registration-settings",
      tags: ["Registration"],
      summary:
        "Change the minimum age to join online (organisation admins); an age-bypass link still lets younger people join",
      request: { params: idParams("organisationId"), ...jsonBody(registrationSettingsInput) },
      responses: {
        200: json(envelope(registrationSettingsSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json(
        {
          data: await setRegistrationSettings(
            actorOf(c),
            c.req.valid("param").organisationId,
            c.req.valid("json"),
          ),
        },
        200,
      ),
  );
