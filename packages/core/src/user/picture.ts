import { db } from "../db/service";

/**
 * A profile photo's address a browser can load: the stored key behind `GET /api/files/…`
 * (`profile-pictures/<organisation>/<user>/<file>` for photos taken since personal details became
 * per organisation; `profile-pictures/<user>/<file>` for older ones, which the backfill copied to
 * each organisation the person was in). Served to its owner and to staff of an organisation whose
 * record of the person names that key (registration/profile-picture.ts). Null without a photo.
 */
export function profilePictureUrl(key: string | null | undefined): string | null {
  return key ? `/api/files/${key}` : null;
}

/** The photos several people gave one organisation (one BatchGet): user id → address or null. */
export async function profilePicturesOf(
  organisationId: string,
  userIds: string[],
): Promise<Map<string, string | null>> {
  const unique = [...new Set(userIds)];
  const out = new Map<string, string | null>();
  if (!unique.length) return out;
  const { data } = await db()
    .entities.memberProfile.get(unique.map((user_id) => ({ organisation_id: organisationId, user_id })))
    .go({ concurrency: 4, attributes: ["user_id", "profile_picture"] });
  for (const profile of data) out.set(profile.user_id, profilePictureUrl(profile.profile_picture));
  return out;
}
