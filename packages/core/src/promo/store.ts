/** Reads of promo code records. No authorisation here: services decide (promo/service.ts). */
import type { EntityItem } from "electrodb";
import { db } from "../db/service";
import type { promoCodeEntity } from "./entity";

export type PromoCodeRecord = EntityItem<typeof promoCodeEntity>;

export async function findPromoCode(
  organisationId: string,
  promoCodeId: string,
): Promise<PromoCodeRecord | null> {
  const { data } = await db()
    .entities.promoCode.get({ organisation_id: organisationId, promo_code_id: promoCodeId })
    .go();
  return (data as PromoCodeRecord | null) ?? null;
}

/** A code by its name (upper case) within the organisation, or null. */
export async function findPromoCodeByName(
  organisationId: string,
  code: string,
): Promise<PromoCodeRecord | null> {
  const { data } = await db().entities.promoCodeName.get({ organisation_id: organisationId, code }).go();
  return data ? findPromoCode(organisationId, data.promo_code_id) : null;
}

export async function listPromoCodeRecords(organisationId: string): Promise<PromoCodeRecord[]> {
  const { data } = await db()
    .entities.promoCode.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  return data as PromoCodeRecord[];
}

/** Whether the member has used the code (one use per member). */
export async function hasUsedPromoCode(organisationId: string, promoCodeId: string, userId: string) {
  const { data } = await db()
    .entities.promoCodeUse.get({
      organisation_id: organisationId,
      promo_code_id: promoCodeId,
      user_id: userId,
    })
    .go();
  return data !== null;
}
