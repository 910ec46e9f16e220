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
    // Money (route-policy.ts): trainers are refused before this runs.
    return c.json(
      whole(await priceChangeCandidates(actorOf(c), c.req.valid("param").id, c.req.valid("query").gym_id)),
      200,
    );
  },
);
