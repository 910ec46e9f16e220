/**
 * The card surcharge a price is quoted with. The settings (basis points + fixed cents) belong to
 * the gyms/settings work: a gym's own setting wins over the organisation's; where neither is set
 * the surcharge is 0. This is the one place prices read them, so the field names live here.
 */
import { noSurcharge, type SurchargeSettings } from "../billing/index";

/** The settings fields a gym or organisation record may carry (added by the settings work). */
export interface SurchargeFields {
  card_surcharge_basis_points?: number | null;
  card_surcharge_fixed_cents?: number | null;
}

function read(record: unknown): SurchargeSettings | null {
  if (!record || typeof record !== "object") return null;
  const { card_surcharge_basis_points: bp, card_surcharge_fixed_cents: fixed } = record as SurchargeFields;
  const validBp = Number.isSafeInteger(bp) && (bp as number) >= 0 && (bp as number) <= 10_000;
  const validFixed = Number.isSafeInteger(fixed) && (fixed as number) >= 0;
  if (!validBp && !validFixed) return null;
  return { percentBasisPoints: validBp ? (bp as number) : 0, fixedCents: validFixed ? (fixed as number) : 0 };
}

/** The card surcharge settings for a price of this organisation (at this gym, when there is one). */
export function cardSurchargeSettings(organisation: unknown, gym?: unknown): SurchargeSettings {
  return read(gym) ?? read(organisation) ?? noSurcharge;
}
