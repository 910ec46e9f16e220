/**
 * `GET /api/surcharge-total`: what a member pays for a price (or an amount) by card or bank:
 * amount, surcharge and total, from the gym's card surcharge (organisation default unless the gym
 * overrides it). Bank payments carry none.
 */
import type { Actor } from "../auth/actor";
import { inGym } from "../auth/policy";
import { formatCents } from "../billing/money";
import { type SurchargeTotal, surchargeTotalQuery } from "../contract/payment";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { findPaymentType } from "../payment-type/service";
import { findPrice } from "../price/store";
import { parse } from "../validation";
import { chargeSurcharge } from "./surcharge";

export async function surchargeTotal(actor: Actor, query: unknown): Promise<SurchargeTotal> {
  const values = parse(surchargeTotalQuery, query);
  if (!actor.organisationId) throw new ConflictError("Join a gym first.", "no_organisation");
  const organisationId = actor.organisationId;
  const gymId = values.gym_id ?? actor.gymId;
  if (!gymId) throw ValidationError.field("gym_id", "Value is required");
  inGym(actor, gymId);
  let amount = values.amount;
  if (values.price_id !== undefined) {
    const price = await findPrice(organisationId, values.price_id);
    if (!price || price.archived_at) throw new NotFoundError("price");
    amount = price.amount;
  }
  let kind = values.payment_type;
  if (values.payment_type_id !== undefined) {
    const type = await findPaymentType(organisationId, actor.userId, values.payment_type_id);
    if (!type) throw new NotFoundError("payment type");
    kind = type.type;
  }
  const cents = amount ?? 0;
  const extra = await chargeSurcharge(organisationId, gymId, kind ?? "bank_account", cents);
  return {
    amount: cents,
    surcharge: extra,
    total: cents + extra,
    formatted_amount: formatCents(cents),
    formatted_surcharge: formatCents(extra),
    formatted_total: formatCents(cents + extra),
    payment_type: kind ?? "bank_account",
  };
}
