import {
  addPifInput,
  inviteSentSchema,
  onboardedPifSchema,
  onboardPifInput,
} from "@gym/core/contract/lifecycle";
import { subscriptionConflictSchema, subscriptionSchema } from "@gym/core/contract/payment";
import { onboardPif } from "@gym/core/invitation/pif";
import { addPif, resendPifInvite } from "@gym/core/pif/service";
import { actorOf, createRouter, staffRoute } from "../context";
import { envelope, errorResponses, idParam, json, jsonBody } from "../respond";

const tags = ["Membership lifecycle"];
const refused = {
  403: errorResponses[403],
  404: errorResponses[404],
  409: errorResponses[409],
  422: errorResponses[422],
};

/**
 * Pay in full (spec 001 §7 Members; core/pif/service.ts): staff add a PIF membership to a member,
 * create a member on one, and resend the link that finishes their registration. Admins of the
 * gym only (403 for trainers); another organisation's ids answer 404.
 */
export const pifRouter = createRouter()
  .openapi(
    staffRoute({
      method: "post",
      path: "/members/{id}/pif",
      tags,
      summary:
        "Add a pay-in-full membership paid by eftpos, cash or bank transfer (awaiting_payment until received) when canAddPif allows",
      request: { params: idParam, ...jsonBody(addPifInput) },
      responses: {
        ...refused,
        409: json(
          subscriptionConflictSchema,
          "Conflict: `subscription_exists` answers the member's live membership as `data`; `pif_not_allowed` by canAddPif",
        ),
        201: json(envelope(subscriptionSchema), "Created"),
      },
    }),
    async (c) =>
      c.json({ data: await addPif(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/organisations/{id}/members/onboard-pif",
      tags,
      summary:
        "Create a member on a pay-in-full price (eftpos, cash or bank transfer) and email them a link to finish registering",
      request: { params: idParam, ...jsonBody(onboardPifInput) },
      responses: { ...refused, 201: json(envelope(onboardedPifSchema), "Created") },
    }),
    async (c) =>
      c.json({ data: await onboardPif(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/members/{id}/resend-pif-invite",
      tags,
      summary: "Email a pay-in-full member the link to finish registering again (409 once they have)",
      request: { params: idParam },
      responses: { ...refused, 200: json(envelope(inviteSentSchema)) },
    }),
    async (c) => c.json({ data: await resendPifInvite(actorOf(c), c.req.valid("param").id) }, 200),
  );
