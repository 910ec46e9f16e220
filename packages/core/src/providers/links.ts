import { db } from "../db/service";

export type LinkKind = "stripe_account" | "kisi_place";

export async function linkProviderId(
  provider: LinkKind,
  externalId: string,
  owner: { organisation_id: string; gym_id?: string },
) {
  await db()
    .entities.providerLink.put({ provider, external_id: externalId, ...owner })
    .go();
}

export async function unlinkProviderId(provider: LinkKind, externalId: string) {
  await db().entities.providerLink.delete({ provider, external_id: externalId }).go();
}

export async function ownerOfProviderId(provider: LinkKind, externalId: string) {
  const { data } = await db().entities.providerLink.get({ provider, external_id: externalId }).go();
  return data ? { organisation_id: data.organisation_id, gym_id: data.gym_id ?? null } : null;
}
