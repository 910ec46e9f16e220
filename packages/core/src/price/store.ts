/** Reads of price records. No authorisation here: services decide (price/service.ts). */
import { db } from "../db/service";
import type { PriceRecord } from "./present";

/** One price by key; another organisation's id simply misses. */
export async function findPrice(organisationId: string, priceId: string): Promise<PriceRecord | null> {
  const { data } = await db().entities.price.get({ organisation_id: organisationId, price_id: priceId }).go();
  return (data as PriceRecord | null) ?? null;
}

/** Every price of an organisation: one query on its partition. */
export async function listPriceRecords(organisationId: string): Promise<PriceRecord[]> {
  const { data } = await db()
    .entities.price.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  return data as PriceRecord[];
}

/** The prices of one offering: one query on gsi1. */
export async function listOfferingPriceRecords(
  organisationId: string,
  offeringId: string,
): Promise<PriceRecord[]> {
  const { data } = await db()
    .entities.price.query.byOffering({ organisation_id: organisationId, offering_id: offeringId })
    .go({ pages: "all" });
  return data as PriceRecord[];
}
