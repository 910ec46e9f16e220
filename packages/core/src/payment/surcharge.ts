/**
 * The surcharge of a charge: the one place that decides it (docs/billing.md "Card surcharge" and
 * "Settings → Gym overrides"). A card charge carries the gym's surcharge override, else the
 * organisation's; a bank account, or a payment taken in person, carries none; nothing charged
 * carries nothing. The rates are read when the charge is priced (`context.ts`: never a kept copy).
 */
import { type SurchargeSettings, surcharge } from "../billing/money";
import type { PaymentKindValue } from "../contract/payment";
import { cardSurchargeFor, type OrganisationSettings } from "../organisation/settings";
import { type BillingContext, freshContext } from "./context";

type SurchargeRates = Pick<
  OrganisationSettings,
  "card_surcharge_basis_points" | "card_surcharge_fixed_cents"
>;
type GymOverride = {
  card_surcharge_basis_points?: number | null;
  card_surcharge_fixed_cents?: number | null;
};

/** Pure: the surcharge of `amount` paid by `method` at a gym of an organisation. */
export function surchargeOfCharge(
  method: PaymentKindValue | string,
  amount: number,
  settings: SurchargeRates,
  gym: GymOverride,
): number {
  if (method !== "stripe_card" || amount <= 0) return 0;
  return surcharge(amount, cardSurchargeFor(settings, gym));
}

/** The card rate in force at a gym, read now (for quotes and texts that show the rate itself). */
export async function cardRateOf(
  organisationId: string,
  gymId: string,
  context: BillingContext = freshContext,
): Promise<SurchargeSettings> {
  const [settings, gym] = await Promise.all([
    context.settingsOf(organisationId),
    context.gymOf(organisationId, gymId),
  ]);
  return cardSurchargeFor(settings, gym);
}

/** The surcharge of a charge about to be made or planned, with the rates read now. */
export async function chargeSurcharge(
  organisationId: string,
  gymId: string,
  method: PaymentKindValue | string,
  amount: number,
  context: BillingContext = freshContext,
): Promise<number> {
  if (method !== "stripe_card" || amount <= 0) return 0;
  const [settings, gym] = await Promise.all([
    context.settingsOf(organisationId),
    context.gymOf(organisationId, gymId),
  ]);
  return surchargeOfCharge(method, amount, settings, gym);
}
