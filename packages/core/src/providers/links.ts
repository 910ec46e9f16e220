import { Entity } from "electrodb";
import { SERVICE, timestamps } from "../db/entity";
import { db } from "../db/service";

/**
 * Which organisation (and gym) a provider's id belongs to, so an inbound webhook that names only
 * the provider's id (a Stripe connected account, a Kisi place) is filed under its organisation.
 * Written when the connection is made; one key lookup when a webhook arrives.
 */
export const providerLinkEntity = new Entity({
  model: { entity: "provider_link", version: "1", service: SERVICE },
  attributes: {
    provider: { type: ["stripe_account", "kisi_place"] as const, required: true, readOnly: true },
    external_id: { type: "string", required: true, readOnly: true },
    organisation_id: { type: "string", required: true },
    gym_id: { type: "string" },
    ...timestamps,
  },
  indexes: {
    primary: {
      pk: { field: "pk", composite: ["provider", "external_id"] },
      sk: { field: "sk", composite: [] },
    },
  },
});

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
