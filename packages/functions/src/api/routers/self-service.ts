import { cancelInput, cancellationPreviewSchema, pauseInput } from "@gym/core/contract/lifecycle";
import { subscriptionSchema } from "@gym/core/contract/payment";
import {
  cancelOwnSubscription,
  ownCancellationPreview,
  pauseOwnSubscription,
  removeOwnPause,
  stopOwnTrial,
} from "@gym/core/subscription/operations/self-service";
import { actorOf, createRouter, userRoute } from "../context";
import { envelope, errorResponses, idParam, json, jsonBody, optionalJsonBody } from "../respond";
import { conflict } from "./lifecycle";

const changed = {
  200: json(envelope(subscriptionSchema)),
  404: errorResponses[404],
  409: conflict,
  422: errorResponses[422],
};
const tags = ["Member self-service"];

/**
 * A signed-in member's own membership on the join site (issue 11, docs/billing.md "Member
 * self-service"): the staff lifecycle rules (core subscription/operations/self-service.ts) on the caller's own
 * subscription only; another member's id answers 404.
 */
export const selfServiceRouter = createRouter()
  .openapi(
    userRoute({
      method: "get",
      path: "/me/subscriptions/{id}/cancellation-preview",
      tags,
      summary: "What cancelling my membership means: effect date, cooling-off, break fee",
      request: { params: idParam },
      responses: { 200: json(envelope(cancellationPreviewSchema)), 404: errorResponses[404] },
    }),
    async (c) => c.json({ data: await ownCancellationPreview(actorOf(c), c.req.valid("param").id) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/subscriptions/{id}/cancel",
      tags,
      summary:
        "Cancel my membership at the end of the paid period (inside a term after cooling-off the break fee is charged)",
      request: { params: idParam, ...optionalJsonBody(cancelInput) },
      responses: changed,
    }),
    async (c) =>
      c.json(
        { data: await cancelOwnSubscription(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
        200,
      ),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/subscriptions/{id}/stop-trial",
      tags,
      summary:
        "Stop my trial: the membership ends at the trial's end and nothing is charged (409 not_in_trial after it)",
      request: { params: idParam, ...optionalJsonBody(cancelInput) },
      responses: changed,
    }),
    async (c) =>
      c.json({ data: await stopOwnTrial(actorOf(c), c.req.valid("param").id, c.req.valid("json")) }, 200),
  )
  .openapi(
    userRoute({
      method: "post",
      path: "/me/subscriptions/{id}/pause",
      tags,
      summary: "Pause my membership within my pause-day credit",
      request: { params: idParam, ...jsonBody(pauseInput) },
      responses: changed,
    }),
    async (c) =>
      c.json(
        { data: await pauseOwnSubscription(actorOf(c), c.req.valid("param").id, c.req.valid("json")) },
        200,
      ),
  )
  .openapi(
    userRoute({
      method: "delete",
      path: "/me/subscriptions/{id}/pause",
      tags,
      summary: "Remove the pause I booked before it starts; its days go back to my pause-day credit",
      request: { params: idParam },
      responses: changed,
    }),
    async (c) => c.json({ data: await removeOwnPause(actorOf(c), c.req.valid("param").id) }, 200),
  );
