/**
 * `GET /api/me` (spec 000 §3 "Current user") with the member's payment methods: `payment_types`
 * are the ones they can pay with and `default_payment_type` the one charged, by the same rule as
 * the join site's registration state (`usablePaymentTypes`). Staff and members of no organisation
 * have none. The identity part is auth/me.ts; this sits above it, beside the payment methods.
 */
import type { Actor } from "../auth/actor";
import { currentUser } from "../auth/me";
import { type PaymentTypeView, presentPaymentType } from "./present";
import { listPaymentTypeRecords } from "./service";

/** Active payment types, and a bank account to reconnect; the default among them or null. */
export function usablePaymentTypes(types: PaymentTypeView[]) {
  const usable = types.filter((p) => p.status === "active" || p.status === "reauthenticate");
  return { usable, default: usable.find((p) => p.is_default) ?? null };
}

export async function currentUserWithPaymentTypes(actor: Actor) {
  const [user, records] = await Promise.all([
    currentUser(actor),
    actor.organisationId ? listPaymentTypeRecords(actor.organisationId, actor.userId) : [],
  ]);
  const { usable, default: defaultType } = usablePaymentTypes(records.map(presentPaymentType));
  return { ...user, payment_types: usable, default_payment_type: defaultType };
}
