/** A gym's door access: Kisi places and doors, and which doors count visits. */
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, policy } from "../auth/policy";
import { type AccessPlace, type DoorIntegration, type Gym, linkPlaceInput } from "../contract/gym";
import { NotFoundError, ValidationError } from "../errors";
import { kisiKeyOf } from "../organisation/settings";
import { kisiProvider } from "../providers/kisi/index";
import { linkProviderId, unlinkProviderId } from "../providers/links";
import { parse } from "../validation";
import { getGym, listGyms } from "./service";
import { mayManage, patchGym } from "./settings";

function mayLinkPlaces(actor: Actor) {
  authorize(
    policy.useStaffArea(actor) &&
      (actor.orgRole === "admin" || actor.gymRoles.some((g) => g.role === "admin")),
    "Only organisation and gym admins may manage door access.",
  );
}

/** Kisi's places, each with the gym it is linked to (if any). */
export async function listAccessPlaces(actor: Actor, organisationId: string): Promise<AccessPlace[]> {
  if (actor.organisationId !== organisationId) throw new NotFoundError("organisation");
  mayLinkPlaces(actor);
  const [places, gyms] = await Promise.all([
    kisiProvider().listPlaces(await kisiKeyOf(organisationId)),
    listGyms(organisationId),
  ]);
  return places.map((place) => {
    const gym = gyms.find((g) => g.kisi_place?.place_id === place.id);
    return {
      id: place.id,
      name: place.name,
      place_id: place.id,
      gym_id: gym?.gym_id ?? null,
      gym_name: gym?.name ?? null,
    };
  });
}

/** Kisi's locks of a place as door integrations, with tracks_visits from the linked gym. */
export async function listPlaceDoors(
  actor: Actor,
  organisationId: string,
  placeId: string,
): Promise<DoorIntegration[]> {
  if (actor.organisationId !== organisationId) throw new NotFoundError("organisation");
  mayLinkPlaces(actor);
  const [locks, gyms] = await Promise.all([
    kisiProvider().listLocks(await kisiKeyOf(organisationId), placeId),
    listGyms(organisationId),
  ]);
  const gym = gyms.find((g) => g.kisi_place?.place_id === placeId);
  return locks.map((lock) => {
    const stored = gym?.doors?.find((d) => d.door_id === lock.id);
    return {
      id: lock.id,
      integration_type: "kisi" as const,
      integration: {
        id: lock.id,
        name: lock.name,
        door_id: lock.id,
        tracks_visits: stored?.tracks_visits ?? false,
      },
    };
  });
}

/**
 * POST /api/gyms/{id}/access-control/places: links a Kisi place to the gym (or unlinks with a
 * null place_id) and sets which of its doors track visits. A place serves one gym.
 */
export async function linkPlace(actor: Actor, gymId: string, input: unknown): Promise<Gym> {
  mayManage(actor, gymId);
  const { place_id, doors } = parse(linkPlaceInput, input);
  const organisationId = currentOrganisation(actor);
  const gym = await getGym(organisationId, gymId);
  const previous = gym.kisi_place?.place_id;
  if (place_id === null) {
    if (previous) await unlinkProviderId("kisi_place", previous);
    return patchGym(actor, gymId, {}, ["kisi_place", "doors"]);
  }
  const apiKey = await kisiKeyOf(organisationId);
  const [place, gyms] = await Promise.all([
    kisiProvider().getPlace(apiKey, place_id),
    listGyms(organisationId),
  ]);
  if (!place) throw ValidationError.field("place_id", "Kisi has no such place");
  const other = gyms.find((g) => g.gym_id !== gymId && g.kisi_place?.place_id === place_id);
  if (other) throw ValidationError.field("place_id", `This place is already linked to ${other.name}`);
  const locks = await kisiProvider().listLocks(apiKey, place_id);
  const unknown = doors.filter((d) => !locks.some((lock) => lock.id === d.id));
  if (unknown.length) throw ValidationError.field("doors", "Some doors are not in this place");
  const keep = previous === place_id ? (gym.doors ?? []) : [];
  const stored = locks.map((lock) => ({
    door_id: lock.id,
    name: lock.name,
    tracks_visits:
      doors.find((d) => d.id === lock.id)?.tracks_visits ??
      keep.find((d) => d.door_id === lock.id)?.tracks_visits ??
      false,
  }));
  if (previous && previous !== place_id) await unlinkProviderId("kisi_place", previous);
  await linkProviderId("kisi_place", place_id, { organisation_id: organisationId, gym_id: gymId });
  return patchGym(actor, gymId, {
    kisi_place: { place_id, name: place.name, linked_at: new Date().toISOString() },
    doors: stored,
  });
}
