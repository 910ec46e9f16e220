/**
 * Pay in full for an existing member (`POST /api/members/{id}/pif`): staff record a one_off price paid
 * by eftpos, cash or bank transfer (which stays `awaiting_payment` until marked received). Allowed only
 * when spec §4's `canAddPif` says so: no subscription, or none with a scheduled price change and none
 * upcoming. The subscription is made by the money engine's `createSubscription` (pif_ends_at from the
 * price's term).
 */
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { canAddPif } from "../billing/subscription-state";
import { businessNow } from "../clock";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { adminGymIds, staffGymIds, staffOrganisation } from "../payment/list";
import { findPrice } from "../price/store";
import { createSubscription, subscriptionWithPayments } from "../subscription/service";
import { factsOf } from "../subscription/states";
import { isLive, memberSubscriptions } from "../subscription/store";
import { parse } from "../validation";

export const addPifInput = z
  .object({
    price_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(64),
    gym_id: z.string({ error: "Value is required" }).trim().min(1, "Value is required").max(64),
    payment_method: z.enum(["eftpos", "cash", "bank_transfer"], {
      error: "Choose eftpos, cash or bank transfer.",
    }),
  })
  .meta({
    example: {
      price_id: "01J0000000000000000000000B",
      gym_id: "01J0000000000000000000000C",
      payment_method: "eftpos",
    },
  });

export async function addPif(actor: Actor, userId: string, body: unknown) {
  const values = parse(addPifInput, body);
  const organisationId = staffOrganisation(actor);
  if (!staffGymIds(actor).includes(values.gym_id)) throw new NotFoundError("gym");
  authorize(
    adminGymIds(actor).includes(values.gym_id),
    "Only an admin of this gym can add a pay-in-full membership.",
  );
  const price = await findPrice(organisationId, values.price_id);
  if (!price || price.archived_at) throw ValidationError.field("price_id", "Choose a current price.");
  if (price.billing_frequency !== "one_off")
    throw ValidationError.field("price_id", "Choose a pay-in-full (PIF) price.");
  const now = await businessNow();
  const subs = await memberSubscriptions(organisationId, userId);
  if (!canAddPif(subs.filter((s) => isLive(s, now)).map((s) => factsOf(s, now))))
    throw new ConflictError(
      "This member has an upcoming membership or a scheduled price change, so pay in full cannot be added.",
      "pif_not_allowed",
    );
  const created = await createSubscription({
    organisation_id: organisationId,
    user_id: userId,
    gym_id: values.gym_id,
    price_id: values.price_id,
    pif_payment_method: values.payment_method,
    processed_by: actor.userId,
  });
  return subscriptionWithPayments(created.subscription);
}
