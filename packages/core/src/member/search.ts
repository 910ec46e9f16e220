/** `POST /api/search` (spec 001 §2 top bar): the organisation's members by name word or email prefix. */
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { type SearchResult, searchInput } from "../contract/member";
import { titleCase } from "../text";
import { profilePicturesOf } from "../user/picture";
import { parse } from "../validation";
import { searchIndex } from "./search-index";

export async function searchMembers(actor: Actor, body: unknown): Promise<SearchResult[]> {
  const organisationId = staffOrganisation(actor);
  const { query } = parse(searchInput, body);
  const hits = await searchIndex(
    organisationId,
    query,
    actor.orgRole === "admin" ? null : staffGymIds(actor),
  );
  const pictures = await profilePicturesOf(
    organisationId,
    hits.map((hit) => hit.id),
  );
  return hits.map((hit) => ({
    id: hit.id,
    name: titleCase(hit.name),
    email: hit.email,
    profile_picture: pictures.get(hit.id) ?? null,
  }));
}
