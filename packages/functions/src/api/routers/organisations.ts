import {
  billingSettingsInput,
  communicationsSettingsInput,
  gracePeriodInput,
  offeringPermissionsInput,
  organisationInput,
  organisationSettingsSchema,
  priceFrequenciesInput,
  termGracePeriodInput,
} from "@gym/core/contract/organisation";
import {
  readOrganisation,
  updateBillingSettings,
  updateCommunicationsSettings,
  updateGracePeriod,
  updateOfferingPermissions,
  updateOrganisation,
  updatePriceFrequencies,
  updateTermGracePeriod,
} from "@gym/core/organisation/settings";
import type { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute } from "../context";
import { envelope, errorResponses, idParams, json, jsonBody } from "../respond";

const orgParam = idParams("organisationId");

const answer = {
  200: json(envelope(organisationSettingsSchema)),
  403: errorResponses[403],
  404: errorResponses[404],
  422: errorResponses[422],
};

type Update = typeof updateOrganisation;

/** One PUT per settings section (spec 000 §7), each for organisation admins only. */
const sections: { path: string; summary: string; body: z.ZodType; update: Update }[] = [
  { path: "", summary: "Rename the organisation", body: organisationInput, update: updateOrganisation },
  {
    path: "/grace-period",
    summary: "Failed-payment grace period (value and unit: days, weeks or months)",
    body: gracePeriodInput,
    update: updateGracePeriod,
  },
  {
    path: "/term-membership-grace-period",
    summary: "Term-membership grace period (value and unit)",
    body: termGracePeriodInput,
    update: updateTermGracePeriod,
  },
  {
    path: "/offering-permissions",
    summary: "Which offerings and access types may be offered",
    body: offeringPermissionsInput,
    update: updateOfferingPermissions,
  },
  {
    path: "/price-frequencies",
    summary: "The price frequencies new prices may use",
    body: priceFrequenciesInput,
    update: updatePriceFrequencies,
  },
  {
    path: "/billing-settings",
    summary:
      "Retry schedule, cooling-off days, pause-day credit, card surcharge and break fee (basis points, cents)",
    body: billingSettingsInput,
    update: updateBillingSettings,
  },
  {
    path: "/communications",
    summary:
      "Receipts' legal name and GST number (checked by IRD's check digit; blank: not GST-registered), and the days before a charge its reminder is sent (0: none)",
    body: communicationsSettingsInput,
    update: updateCommunicationsSettings,
  },
];

const router = createRouter().openapi(
  staffRoute({
    method: "get",
    path: "/organisations/{organisationId}",
    tags: ["Organisations"],
    summary: "The organisation's settings, defaults filled in",
    request: { params: orgParam },
    responses: answer,
  }),
  async (c) => c.json({ data: await readOrganisation(actorOf(c), c.req.valid("param").organisationId) }, 200),
);

for (const section of sections) {
  router.openapi(
    staffRoute({
      method: "put",
      path: `/organisations/{organisationId}${section.path}`,
      tags: ["Organisations"],
      summary: section.summary,
      request: { params: orgParam, ...jsonBody(section.body) },
      responses: answer,
    }),
    async (c) =>
      c.json(
        {
          data: await section.update(actorOf(c), c.req.valid("param").organisationId, c.req.valid("json")),
        },
        200,
      ),
  );
}

/** Organisation settings (spec 000 §7 Organisations). */
export const organisationsRouter = router;
