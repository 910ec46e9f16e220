import { db } from "../db/service";
import { NotFoundError } from "../errors";
import { newId } from "../ids";

export type Organisation = NonNullable<Awaited<ReturnType<typeof getOrganisationOrNull>>>;

export async function createOrganisation(input: { name: string; multi_gym?: boolean }) {
  const { data } = await db()
    .entities.organisation.create({
      organisation_id: newId(),
      name: input.name,
      multi_gym: input.multi_gym ?? false,
    })
    .go();
  return data;
}

export async function getOrganisationOrNull(organisationId: string) {
  const { data } = await db().entities.organisation.get({ organisation_id: organisationId }).go();
  return data;
}

export async function getOrganisation(organisationId: string) {
  const organisation = await getOrganisationOrNull(organisationId);
  if (!organisation) throw new NotFoundError("organisation");
  return organisation;
}

/** Several organisations in one batch read (a user's organisation list). */
export async function getOrganisations(organisationIds: string[]) {
  if (organisationIds.length === 0) return [];
  const { data } = await db()
    .entities.organisation.get(organisationIds.map((organisation_id) => ({ organisation_id })))
    .go();
  return data;
}
