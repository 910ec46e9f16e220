import type { Actor } from "@gym/core/auth/actor";
import {
  readOrganisation,
  updateBillingSettings,
  updateGracePeriod,
  updateOfferingPermissions,
  updateOrganisation,
  updatePriceFrequencies,
  updateTermGracePeriod,
} from "@gym/core/organisation/settings";
import { z } from "@hono/zod-openapi";
import { actorOf, createRouter, staffRoute } from "../context";
import { envelope, errorResponses, json } from "../respond";
import { anyObject, jsonBody, readJson } from "./gyms";

const orgParam = z.object({ organisationId: z.string().min(1).max(64) });
const graceUnit = z.enum(["days", "weeks", "months"]);

export const organisationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    multi_gym: z.boolean(),
    offering_permissions: z.object({
      enable_offerings: z.boolean(),
      non_stop: z.boolean(),
      limited_access: z.boolean(),
    }),
    price_frequencies: z.array(z.string()),
    failed_payment_grace_period: z.number().int(),
    failed_payment_grace_period_unit: graceUnit,
    term_membership_grace_period: z.number().int(),
    term_membership_grace_period_unit: graceUnit,
    payment_retry_days: z.array(z.number().int()),
    cooling_off_days: z.number().int(),
    pause_day_credit_days: z.number().int(),
    card_surcharge_basis_points: z.number().int(),
    card_surcharge_fixed_cents: z.number().int(),
    break_fee_basis_points: z.number().int(),
    access_control_integration: z.object({ id: z.string(), integration_type: z.literal("kisi") }).nullable(),
  })
  .openapi("OrganisationSettings");

const answer = {
  200: json(envelope(organisationSchema)),
  403: errorResponses[403],
  404: errorResponses[404],
  422: errorResponses[422],
};

type Update = (
  actor: Actor,
  organisationId: string,
  input: unknown,
) => Promise<z.infer<typeof organisationSchema>>;

/** One PUT per settings section (spec 000 §7), each for organisation admins only. */
const sections: { path: string; summary: string; body: z.ZodType; update: Update }[] = [
  {
    path: "",
    summary: "Rename the organisation",
    body: anyObject({ name: z.string() }, "OrganisationInput"),
    update: updateOrganisation,
  },
  {
    path: "/grace-period",
    summary: "Failed-payment grace period (value and unit: days, weeks or months)",
    body: anyObject(
      { failed_payment_grace_period: z.number().int(), failed_payment_grace_period_unit: graceUnit },
      "GracePeriodInput",
    ),
    update: updateGracePeriod,
  },
  {
    path: "/term-membership-grace-period",
    summary: "Term-membership grace period (value and unit)",
    body: anyObject(
      { term_membership_grace_period: z.number().int(), term_membership_grace_period_unit: graceUnit },
      "TermGracePeriodInput",
    ),
    update: updateTermGracePeriod,
  },
  {
    path: "/offering-permissions",
    summary: "Which offerings and access types may be offered",
    body: anyObject(
      { enable_offerings: z.boolean(), non_stop: z.boolean(), limited_access: z.boolean() },
      "OfferingPermissionsInput",
    ),
    update: updateOfferingPermissions,
  },
  {
    path: "/price-frequencies",
    summary: "The price frequencies new prices may use",
    body: anyObject({ price_frequencies: z.array(z.string()) }, "PriceFrequenciesInput"),
    update: updatePriceFrequencies,
  },
  {
    path: "/billing-settings",
    summary:
      "Retry schedule, cooling-off days, pause-day credit, card surcharge and break fee (basis points, cents)",
    body: anyObject(
      {
        payment_retry_days: z.array(z.number().int()),
        cooling_off_days: z.number().int(),
        pause_day_credit_days: z.number().int(),
        card_surcharge_basis_points: z.number().int(),
        card_surcharge_fixed_cents: z.number().int(),
        break_fee_basis_points: z.number().int(),
      },
      "BillingSettingsInput",
    ),
    update: updateBillingSettings,
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
        { data: await section.update(actorOf(c), c.req.valid("param").organisationId, await readJson(c)) },
        200,
      ),
  );
}

/** Organisation settings (spec 000 §7 Organisations). */
export const organisationsRouter = router;
