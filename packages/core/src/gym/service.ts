import { randomUUID } from "node:crypto";
import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { newId } from "../ids";

export async function createGym(input: { organisation_id: string; name: string }) {
  const { data } = await db()
    .entities.gym.create({
      organisation_id: input.organisation_id,
      gym_id: newId(),
      uuid: randomUUID(),
      name: input.name,
    })
    .go();
  return data;
}

/** All gyms of an organisation: one query on the organisation's partition. */
export async function listGyms(organisationId: string) {
  const { data } = await db()
    .entities.gym.query.primary({ organisation_id: organisationId })
    .go({ pages: "all" });
  return data;
}

/** A gym of this organisation; another organisation's gym id is simply not found. */
export async function getGym(organisationId: string, gymId: string) {
  const { data } = await db().entities.gym.get({ organisation_id: organisationId, gym_id: gymId }).go();
  if (!data) throw new NotFoundError("gym");
  return data;
}

export type GymRecord = Awaited<ReturnType<typeof getGym>>;
