import {
  promoCheckQuery,
  promoCheckSchema,
  promoCodeInput,
  promoCodeSchema,
  promoCodeUpdate,
} from "@gym/core/contract/promo";
import { checkPromoCode } from "@gym/core/promo/join";
import { archivePromoCode, createPromoCode, listPromoCodes, updatePromoCode } from "@gym/core/promo/service";
import { actorOf, createRouter, staffRoute, userRoute } from "../context";
import { envelope, errorResponses, idParam, json, jsonBody, whole, wholeList } from "../respond";

/** Promo codes (docs/offers.md "Promo codes"): organisation admins manage them; the join site checks one. */
export const promoCodesRouter = createRouter()
  .openapi(
    userRoute({
      method: "get",
      path: "/promo-codes/check",
      tags: ["Promo codes"],
      summary:
        'The join site checks a typed code for a price: its discount on one period and the new all-in total (surcharge included), or 422 on `code` with the reason ("This code has expired", "This code is for the Anytime membership")',
      request: { query: promoCheckQuery },
      responses: {
        200: json(envelope(promoCheckSchema)),
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await checkPromoCode(actorOf(c), c.req.valid("query")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "get",
      path: "/promo-codes",
      tags: ["Promo codes"],
      summary:
        "The organisation's promo codes with their uses and status, answered whole (organisation admins)",
      responses: { 200: json(wholeList(promoCodeSchema)), 403: errorResponses[403] },
    }),
    async (c) => c.json(whole(await listPromoCodes(actorOf(c))), 200),
  )
  .openapi(
    staffRoute({
      method: "post",
      path: "/promo-codes",
      tags: ["Promo codes"],
      summary:
        "Make a promo code (organisation admins): percent or amount off, first N periods or every period, for chosen offerings or prices, a gym or the organisation, dates and a use limit",
      request: jsonBody(promoCodeInput),
      responses: {
        201: json(envelope(promoCodeSchema), "Created"),
        403: errorResponses[403],
        404: errorResponses[404],
        422: errorResponses[422],
      },
    }),
    async (c) => c.json({ data: await createPromoCode(actorOf(c), c.req.valid("json")) }, 201),
  )
  .openapi(
    staffRoute({
      method: "put",
      path: "/promo-codes/{id}",
      tags: ["Promo codes"],
      summary:
        "Change a code's terms for joins from now on (the code itself never changes; members who joined keep their terms)",
      request: { params: idParam, ...jsonBody(promoCodeUpdate) },
      responses: {
        200: json(envelope(promoCodeSchema)),
        403: errorResponses[403],
        404: errorResponses[404],
        409: errorResponses[409],
        422: errorResponses[422],
      },
    }),
    async (c) =>
      c.json({ data: await updatePromoCode(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    staffRoute({
      method: "delete",
      path: "/promo-codes/{id}/archive",
      tags: ["Promo codes"],
      summary: "Archive a code: no more joins with it; what members who joined with it pay never changes",
      request: { params: idParam },
      responses: { 200: json(envelope(promoCodeSchema)), 403: errorResponses[403], 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await archivePromoCode(actorOf(c), c.req.valid("param").id) }, 200),
  );
