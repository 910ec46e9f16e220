import { authorize, policy } from "@gym/core/auth/policy";
import { priceChangeCandidateSchema, priceChangeCandidatesQuery } from "@gym/core/contract/lifecycle";
import { priceChangeCandidates } from "@gym/core/subscription/operations/price-change-candidates";
import { actorOf, createRouter, staffRoute } from "../context";
import { errorResponses, idParam, json, whole, wholeList } from "../respond";

/**
 * What the bulk price change (`/members/change-price`) picks from. Scheduling and the email preview
 * are lifecycle calls (routers/lifecycle.ts).
 */
export const priceChangeRouter = createRouter().openapi(
  staffRoute({
    method: "get",
    path: "/prices/{id}/subscriptions",
    tags: ["Membership lifecycle"],
    summary:
      "The live memberships on a price at the gyms this staff member administers (for a bulk price change), answered whole",
    request: { params: idParam, query: priceChangeCandidatesQuery },
    responses: {
      200: json(wholeList(priceChangeCandidateSchema)),
      403: errorResponses[403],
      404: errorResponses[404],
    },
  }),
  async (c) => {
    const actor = actorOf(c);
    authorize(policy.seeMoney(actor), "Price changes are for organisation and gym admins.");
    return c.json(
      whole(await priceChangeCandidates(actor, c.req.valid("param").id, c.req.valid("query").gym_id)),
      200,
    );
  },
);
