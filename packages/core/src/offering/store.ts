/** Reads and writes of offering records. No authorisation here: services decide (offering/service.ts). */
import { db } from "../db/service";
import type { OfferingRecord } from "./present";

const normalise = <T extends { description?: string | null }>(record: T) => record as T & OfferingRecord;

/** One offering by key; another organisation's id simply misses. */
export async function findOffering(
  organisationId: string,
  offeringId: string,
): Promise<OfferingRecord | null> {
  const { data } = await db()
    .entities.offering.get({ organisation_id: organisationId, offering_id: offeringId })
    .go();
  return data ? normalise(data) : null;
}

/** Every offering of an organisation: one query on its partition, oldest first (ULID order). */
export async function listOfferingRecords(organisationId: string): Promise<OfferingRecord[]> {
  const { data } = await db()
    .entities.offering.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  return data.map(normalise);
}
