import { db } from "../db/service";

/**
 * A profile photo's address a browser can load: the stored key (`profile-pictures/<user>/<file>`)
 * behind `GET /api/files/…`, which serves it to its owner and to staff of their organisation
 * (registration/service.ts `readProfilePicture`). Null without a photo.
 */
export function profilePictureUrl(key: string | null | undefined): string | null {
  return key ? `/api/files/${key}` : null;
}

/** The photo addresses of several people at once (one BatchGet): user id → address or null. */
export async function profilePicturesOf(userIds: string[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(userIds)];
  const out = new Map<string, string | null>();
  if (!unique.length) return out;
  const { data } = await db()
    .entities.user.get(unique.map((user_id) => ({ user_id })))
    .go({ concurrency: 4, attributes: ["user_id", "profile_picture"] });
  for (const user of data) out.set(user.user_id, profilePictureUrl(user.profile_picture));
  return out;
}
