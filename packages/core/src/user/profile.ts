/**
 * A person's details as one organisation holds them (profile-entity.ts): read for that
 * organisation only, written by the person (join site) or that organisation's staff (desk).
 */

import type { EntityItem } from "electrodb";
import { db } from "../db/service";
import { type memberProfileEntity, PROFILE_FIELDS, type PROFILE_SWITCHES } from "./profile-entity";

export type Profile = EntityItem<typeof memberProfileEntity>;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileSwitch = (typeof PROFILE_SWITCHES)[number];
/** What a write may set: a value, or null to remove it. */
export type ProfileChanges = Partial<
  Record<ProfileField, string | null> & Record<ProfileSwitch, boolean | null>
>;

export async function getProfile(organisationId: string, userId: string): Promise<Profile | null> {
  const { data } = await db()
    .entities.memberProfile.get({ organisation_id: organisationId, user_id: userId })
    .go();
  return data ?? null;
}

/**
 * Sets and removes the given fields (an upsert: the first write creates the record). Fields left
 * out are kept. Answers nothing: a caller that shows the record reads it (`getProfile`), so the
 * callers that do not (registering, the desk's edit) pay no read.
 */
export async function saveProfile(organisationId: string, userId: string, changes: ProfileChanges) {
  const { set, remove } = split(changes);
  const key = { organisation_id: organisationId, user_id: userId };
  if (Object.keys(set).length)
    await db()
      .entities.memberProfile.upsert({ ...key, ...set })
      .go();
  if (remove.length) {
    await db()
      .entities.memberProfile.patch(key)
      .remove(remove as never)
      .go()
      .catch((error: { message?: string }) => {
        // Removing from a record that was never written removes nothing.
        if (!/conditional/i.test(String(error?.message))) throw error;
      });
  }
}

/** The fields a change sets, and those it clears (null or empty). */
function split(changes: ProfileChanges) {
  const set: Record<string, string | boolean> = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null || value === "") remove.push(key);
    else set[key] = value;
  }
  return { set, remove };
}

/**
 * The first profile of a user the caller creates in its own transaction (register): the fields
 * given (a cleared one is simply not written, as there is nothing to remove yet).
 */
export function newProfileRecord(organisationId: string, userId: string, changes: ProfileChanges) {
  return { organisation_id: organisationId, user_id: userId, ...split(changes).set };
}

/**
 * The details the person gave most recently to another organisation, for the join form to offer
 * them prefilled when they join this one (only the person reads this: their own session). The
 * photo and the switches are not carried: a photo is taken for each gym, consent is asked again.
 */
export async function detailsToCarryOver(
  userId: string,
  organisationIds: string[],
  exceptOrganisationId: string,
): Promise<Partial<Record<ProfileField, string>> | null> {
  const others = organisationIds.filter((id) => id !== exceptOrganisationId);
  if (!others.length) return null;
  const { data } = await db()
    .entities.memberProfile.get(others.map((organisation_id) => ({ organisation_id, user_id: userId })))
    .go();
  const latest = [...data].sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1))[0];
  if (!latest) return null;
  const out: Partial<Record<ProfileField, string>> = {};
  for (const field of PROFILE_FIELDS) {
    if (field === "profile_picture") continue;
    const value = latest[field];
    if (typeof value === "string" && value) out[field] = value;
  }
  return out;
}

/** The emailed switches: absent means on (the default a member is asked about on the join form). */
export function switchesOf(profile: Partial<Record<ProfileSwitch, boolean | undefined>> | null) {
  return {
    email_notifications_enabled: profile?.email_notifications_enabled ?? true,
    push_notifications_enabled: profile?.push_notifications_enabled ?? true,
    payment_reminders: profile?.payment_reminders ?? true,
  };
}
