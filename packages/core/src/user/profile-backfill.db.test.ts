/**
 * The move of personal details off the user record (docs/data-model.md "Personal details"), as the
 * doc states it: copied to every organisation where the person holds a role unless that
 * organisation has its own value, removed from the user, kept for someone with no role, and a
 * second run changes nothing. BACKFILL_PEOPLE sets the size (the note's 10,000-member run).
 */
import { describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { db } from "../db/service";
import { newId } from "../ids";
import { getProfile, saveProfile } from "./profile";
import { backfillMemberProfiles } from "./profile-backfill";
import { putRole } from "./roles";

useTestApi();

const PEOPLE = Number(process.env.BACKFILL_PEOPLE ?? 60);

/** A user as written before the move: personal details on the user record. */
async function legacyUser(i: number, extra: Record<string, unknown> = {}) {
  const user_id = newId();
  await db()
    .entities.user.create({
      user_id,
      email: `legacy${i}@example.net`,
      name: `Legacy ${i}`,
      mobile_number: `021 000 ${String(i).padStart(4, "0")}`,
      dob: "1990-01-01",
      address: `${i} Old Road`,
      profile_picture: `profile-pictures/${user_id}/0123456789abcdef0123.jpg`,
      email_notifications_enabled: false,
      ...extra,
    } as never)
    .go();
  return user_id;
}

describe("backfillMemberProfiles", () => {
  it("copies each legacy field to every organisation of the person, then removes it; idempotent", async () => {
    const orgA = newId();
    const orgB = newId();
    const people: string[] = [];
    for (let i = 0; i < PEOPLE; i += 1) {
      const id = await legacyUser(i);
      people.push(id);
      await putRole({ organisation_id: orgA, user_id: id, member_gym_ids: ["g"] });
    }
    // One person is in two organisations, and B already has its own (newer) mobile for them.
    const both = people[0];
    await putRole({ organisation_id: orgB, user_id: both, org_role: "admin" });
    await saveProfile(orgB, both, { mobile_number: "022 999 9999" });
    // One person has no role anywhere: nothing is lost, their details stay.
    const loner = await legacyUser(PEOPLE + 1);

    const first = await backfillMemberProfiles();
    expect(first).toMatchObject({
      users: PEOPLE + 1,
      profiles: PEOPLE + 1,
      users_cleaned: PEOPLE,
      users_kept: 1,
      fields_kept_newer: 1,
    });
    expect(first.fields_copied).toBe(PEOPLE * 5 + 4);

    const a = await getProfile(orgA, both);
    expect(a).toMatchObject({
      mobile_number: "021 000 0000",
      dob: "1990-01-01",
      address: "0 Old Road",
      profile_picture: `profile-pictures/${both}/0123456789abcdef0123.jpg`,
      email_notifications_enabled: false,
    });
    const b = await getProfile(orgB, both);
    expect(b).toMatchObject({ mobile_number: "022 999 9999", address: "0 Old Road" });
    const { data: moved } = await db().entities.user.get({ user_id: both }).go();
    expect(moved?.mobile_number).toBeUndefined();
    expect(moved?.address).toBeUndefined();
    const { data: kept } = await db().entities.user.get({ user_id: loner }).go();
    expect(kept?.mobile_number).toBeDefined();

    const second = await backfillMemberProfiles();
    expect(second).toMatchObject({
      users: 1,
      profiles: 0,
      fields_copied: 0,
      users_cleaned: 0,
      users_kept: 1,
    });
  });
});
