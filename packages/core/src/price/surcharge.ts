/**
 * The card surcharge a price is quoted with: the organisation's card surcharge setting (basis
 * points + fixed cents, defaults filled in by organisationSettings), or a gym's own override when
 * a gym is given. Prices belong to the organisation, so quotes use the organisation's setting.
 */
import type { SurchargeSettings } from "../billing/index";
import type { Organisation } from "../organisation/service";
import { cardSurchargeFor, organisationSettings } from "../organisation/settings";

export interface GymSurchargeOverride {
  card_surcharge_basis_points?: number | null;
  card_surcharge_fixed_cents?: number | null;
}

export function cardSurchargeSettings(
  organisation: Organisation,
  gym?: GymSurchargeOverride | null,
): SurchargeSettings {
  return cardSurchargeFor(organisationSettings(organisation), gym ?? {});
}
