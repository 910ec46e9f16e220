/**
 * `POST /api/subscriptions/{id}/pass-visits` (docs/offers.md "Visit passes"): an admin of the
 * pass's gym adds visits to it, with a reason. A lifecycle change (`commitFacts`, conditional on the
 * version read): the visits are added (DynamoDB ADD, beside the door's own count, which moves
 * without the version), the reason goes in the lifecycle events and the member's activity log, and
 * the door is synced (a pass with none left opens again). Once per Idempotency-Key (`commitFactsOnce`).
 */
import type { Actor } from "../../auth/actor";
import { passOf } from "../../billing/pass";
import { idempotencyHeaders, passVisitsInput } from "../../contract/lifecycle";
import { ConflictError } from "../../errors";
import { parse } from "../../validation";
import { commitFactsOnce, reachableSubscription } from "../lifecycle";

/** `key`: the request's Idempotency-Key: the same key sent again adds nothing more. */
export async function addPassVisits(actor: Actor, subscriptionId: string, body: unknown, key: unknown) {
  const sub = await reachableSubscription(actor, subscriptionId, "change");
  const input = parse(passVisitsInput, body);
  const { "idempotency-key": once } = parse(idempotencyHeaders, { "idempotency-key": key });
  if (!passOf(sub)) throw new ConflictError("This membership is not a visit pass.", "not_a_pass");
  return commitFactsOnce(
    actor,
    sub,
    {
      add: { pass_visits: input.visits },
      movesSchedule: false,
      event: {
        action: "pass_visits_added",
        detail: `${input.visits} ${input.visits === 1 ? "visit" : "visits"} added: ${input.reason}`,
      },
    },
    once,
  );
}
