/**
 * The move of personal details off the user record (docs/data-model.md "Personal details"):
 * for every user still carrying a legacy field (mobile, date of birth, address, emergency contact,
 * answers, photo, switches), each field is copied to the member_profile of every organisation
 * where the person holds a role, unless that organisation already has its own value (a newer
 * answer wins), and then removed from the user. A person with no role anywhere keeps theirs on
 * the user record (nothing is lost; counted as `kept`). Idempotent: a second run finds nothing.
 *
 * The photo: the stored file stays where it is (`profile-pictures/<user>/<file>`) and its key is
 * copied to each of those organisations' profiles, so each goes on seeing the photo it saw before;
 * a later photo taken for one organisation is that organisation's alone.
 *
 * A one-off migration, so it reads the table by Scan (filtered to users with a legacy field),
 * the only Scan outside tests; every request path stays on keys and indexes.
 */
import { db } from "../db/service";
import { getProfile, saveProfile } from "./profile";
import { PROFILE_FIELDS, PROFILE_SWITCHES } from "./profile-entity";
import { rolesOfUser } from "./roles";

const LEGACY = [...PROFILE_FIELDS, ...PROFILE_SWITCHES] as const;

export interface BackfillSummary {
  /** Users read that still had a legacy field. */
  users: number;
  /** Profiles written (one per user and organisation). */
  profiles: number;
  /** Field values copied into profiles. */
  fields_copied: number;
  /** Field values not copied because the organisation had its own already. */
  fields_kept_newer: number;
  /** Users whose legacy fields were removed after the copy. */
  users_cleaned: number;
  /** Users with no role anywhere: their fields stay on the user record. */
  users_kept: number;
}

export async function backfillMemberProfiles(
  options: { onProgress?: (summary: BackfillSummary) => void } = {},
): Promise<BackfillSummary> {
  const summary: BackfillSummary = {
    users: 0,
    profiles: 0,
    fields_copied: 0,
    fields_kept_newer: 0,
    users_cleaned: 0,
    users_kept: 0,
  };
  let cursor: string | null = null;
  do {
    const page: { data: Record<string, unknown>[]; cursor: string | null } = await db()
      .entities.user.scan.where((attr, op) => LEGACY.map((field) => op.exists(attr[field])).join(" OR "))
      .go({ cursor, limit: 500 });
    for (const user of page.data) await moveUser(user, summary);
    options.onProgress?.(summary);
    cursor = page.cursor;
  } while (cursor);
  return summary;
}

async function moveUser(user: Record<string, unknown>, summary: BackfillSummary) {
  const legacy = Object.fromEntries(
    LEGACY.filter((field) => user[field] !== undefined && user[field] !== "").map((f) => [f, user[f]]),
  );
  if (!Object.keys(legacy).length) return;
  summary.users += 1;
  const userId = user.user_id as string;
  const roles = await rolesOfUser(userId);
  if (!roles.length) {
    summary.users_kept += 1;
    return;
  }
  for (const role of roles) {
    const existing = (await getProfile(role.organisation_id, userId)) as Record<string, unknown> | null;
    const copy: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(legacy)) {
      if (existing?.[field] !== undefined) summary.fields_kept_newer += 1;
      else copy[field] = value;
    }
    if (Object.keys(copy).length) {
      await saveProfile(role.organisation_id, userId, copy);
      summary.profiles += 1;
      summary.fields_copied += Object.keys(copy).length;
    }
  }
  await db()
    .entities.user.patch({ user_id: userId })
    .remove(Object.keys(legacy) as never)
    .go();
  summary.users_cleaned += 1;
}
