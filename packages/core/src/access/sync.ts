/**
 * Door access follows door standing (docs/access-control.md). ONE rule decides standing:
 * `hasStanding` (billing/subscription-state.ts: active, or cancelled but inside the paid period,
 * not past grace, not paused). `syncDoorAccess` applies it to one member: for each gym they have a
 * membership at, Kisi is asked to give (or take away) their credential at the gym's place, and what
 * was asked is stored as a door-access record. Idempotent: a second call asks Kisi for the same
 * thing (Kisi's own calls are idempotent) and writes the same record.
 *
 * The money and lifecycle operations call it after their write (member/hooks.ts, grace expiry);
 * changes that happen with time alone (a pause starting, a cancellation taking effect) are picked up
 * by the door-access job (door-access.ts) from each record's `review_at`; standing itself is
 * standing.ts.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { EntityItem } from "electrodb";
import type { Standing } from "../billing/subscription-state";
import { businessNow } from "../clock";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { shardOf } from "../db/shards";
import { getGym } from "../gym/service";
import { log } from "../log";
import { getOrganisation } from "../organisation/service";
import { kisiKeyOf } from "../organisation/settings";
import { kisiProvider } from "../providers/kisi/index";
import { memberSubscriptions } from "../subscription/store";
import { getUserOrNull } from "../user/service";
import type { doorAccessEntity } from "./entity";
import { nextReview, standingByGym } from "./standing";

export type DoorAccessRecord = EntityItem<typeof doorAccessEntity>;
export type Holder = DoorAccessRecord["holder"];

const reviewKeys = (r: { organisation_id: string; user_id: string; gym_id: string }, at: string | null) =>
  at
    ? {
        review_at: at,
        review_key: `door_review#${shardOf(r.user_id)}`,
        review_sort: `${at}#${r.organisation_id}#${r.user_id}#${r.gym_id}`,
      }
    : {};

const kisiUserKey = (organisationId: string, kisiUserId: string) =>
  `kisi_user#${organisationId}#${kisiUserId}`;

/** Our user behind a Kisi user id (from the door access we gave them), or null. */
export async function userOfKisiUser(organisationId: string, kisiUserId: string): Promise<string | null> {
  const answer = await dynamo().send(
    new QueryCommand({
      TableName: config.tableName,
      IndexName: "gsi2",
      KeyConditionExpression: "#k = :k",
      ExpressionAttributeNames: { "#k": "gsi2pk" },
      ExpressionAttributeValues: { ":k": kisiUserKey(organisationId, kisiUserId) },
      Limit: 1,
    }),
  );
  const { data } = db().entities.doorAccess.parse({ Items: answer.Items ?? [] });
  return (data as DoorAccessRecord[])[0]?.user_id ?? null;
}

/** One member's (or staff member's) door records: one per gym and holder, a handful. */
export async function doorAccessRecords(organisationId: string, userId: string): Promise<DoorAccessRecord[]> {
  const { data } = await db()
    .entities.doorAccess.query.primary({ organisation_id: organisationId, user_id: userId })
    .go({ pages: "all" });
  return data;
}

interface Target {
  gym_id: string;
  holder: Holder;
  standing: Standing;
  review_at: string | null;
}

/**
 * Asks Kisi for what the standing says at one gym and stores it. `recreate` takes the access away
 * first (a fresh credential). Kisi errors are stored on the record (last_error) and thrown.
 */
/**
 * What the caller read in this same request (a subscription just made): the organisation, the gym,
 * the member and their subscriptions (the one just made among them), so the sync does not read
 * them again. Anything left out is read.
 */
export interface KnownForDoors {
  organisation?: Awaited<ReturnType<typeof getOrganisation>>;
  gym?: Awaited<ReturnType<typeof getGym>>;
  user?: { email: string; name: string };
  subscriptions?: Awaited<ReturnType<typeof memberSubscriptions>>;
}

async function apply(
  organisationId: string,
  userId: string,
  target: Target,
  previous: DoorAccessRecord | undefined,
  options: { recreate?: boolean; known?: KnownForDoors } = {},
): Promise<DoorAccessRecord> {
  const known = options.known ?? {};
  const [org, gym, user] = await Promise.all([
    known.organisation?.organisation_id === organisationId
      ? known.organisation
      : getOrganisation(organisationId),
    known.gym?.organisation_id === organisationId && known.gym.gym_id === target.gym_id
      ? known.gym
      : getGym(organisationId, target.gym_id).catch(() => null),
    known.user ?? getUserOrNull(userId),
  ]);
  const key = {
    organisation_id: organisationId,
    user_id: userId,
    gym_id: target.gym_id,
    holder: target.holder,
  };
  const base = {
    ...key,
    standing: target.standing.standing,
    reason: target.standing.reason,
    synced_at: new Date().toISOString(),
    ...reviewKeys(key, target.review_at),
  };
  // A whole put: review keys and last_error not written this time are gone.
  const write = async (values: Partial<DoorAccessRecord>) => {
    const item = { ...base, ...values } as DoorAccessRecord;
    if (item.kisi_user_id) {
      item.kisi_user_key = kisiUserKey(organisationId, item.kisi_user_id);
      item.kisi_user_sort = `${userId}#${target.holder}#${target.gym_id}`;
    }
    await db().entities.doorAccess.put(item).go();
    return item;
  };
  const placeId = gym?.kisi_place?.place_id;
  if (!org.access_control || !placeId || !user) {
    return write({ status: "not_configured", place_id: undefined });
  }
  const apiKey = await kisiKeyOf(organisationId);
  const input = { place_id: placeId, external_id: userId, email: user.email, name: user.name };
  // Already granted at this place and nothing failed: no Kisi call (a billing run's payments stay cheap).
  if (target.standing.standing && previous?.status === "granted" && previous.place_id === placeId)
    if (!options.recreate && !previous.last_error)
      return write({
        status: "granted",
        place_id: placeId,
        kisi_user_id: previous.kisi_user_id,
        credential_id: previous.credential_id,
      });
  try {
    if (target.standing.standing) {
      if (options.recreate) await kisiProvider().revokeMemberAccess(apiKey, input);
      const access = await kisiProvider().ensureMemberAccess(apiKey, input);
      return write({
        status: "granted",
        place_id: placeId,
        kisi_user_id: access.user_id,
        credential_id: access.group_or_credential_id,
      });
    }
    // Nothing was ever given at this place: nothing to take away (no Kisi call).
    if (previous && previous.status !== "granted" && previous.place_id === placeId && !options.recreate)
      return write({ status: "revoked", place_id: placeId, kisi_user_id: previous.kisi_user_id });
    if (previous?.status === "granted" && previous.place_id && previous.place_id !== placeId)
      await kisiProvider().revokeMemberAccess(apiKey, { ...input, place_id: previous.place_id });
    await kisiProvider().revokeMemberAccess(apiKey, input);
    return write({ status: "revoked", place_id: placeId, kisi_user_id: previous?.kisi_user_id });
  } catch (error) {
    const message = (error as Error).message;
    await write({
      status: previous?.status ?? "revoked",
      place_id: placeId,
      credential_id: previous?.credential_id,
      kisi_user_id: previous?.kisi_user_id,
      last_error: message,
      // Try again soon (the job picks it up).
      ...reviewKeys(key, new Date(Date.now() + 15 * 60_000).toISOString()),
    });
    throw error;
  }
}

/**
 * Gives or takes away the member's door access at each gym they have (or had) a membership at,
 * from door standing now. Returns the stored records.
 */
export async function syncDoorAccess(
  organisationId: string,
  userId: string,
  options: { recreate?: boolean; known?: KnownForDoors } = {},
): Promise<DoorAccessRecord[]> {
  const [now, subs, records] = await Promise.all([
    businessNow(),
    options.known?.subscriptions ?? memberSubscriptions(organisationId, userId),
    doorAccessRecords(organisationId, userId),
  ]);
  const byGym = standingByGym(subs, now);
  const mine = records.filter((r) => r.holder === "member");
  const gyms = new Set([...byGym.keys(), ...mine.map((r) => r.gym_id)]);
  const out: DoorAccessRecord[] = [];
  for (const gymId of gyms) {
    const gymSubs = subs.filter((s) => s.gym_id === gymId);
    out.push(
      await apply(
        organisationId,
        userId,
        {
          gym_id: gymId,
          holder: "member",
          standing: byGym.get(gymId) ?? { standing: false, reason: "No membership at this gym" },
          review_at: nextReview(gymSubs, now),
        },
        mine.find((r) => r.gym_id === gymId),
        options,
      ),
    );
  }
  return out;
}

/** For the operations' hooks: a sync whose failure is logged, never thrown into the operation. */
export async function syncDoorAccessQuietly(
  organisationId: string,
  userId: string,
  known?: KnownForDoors,
): Promise<void> {
  try {
    await syncDoorAccess(organisationId, userId, { known });
  } catch (error) {
    log.warn("door access not synced", { user_id: userId, error: (error as Error).message });
  }
}

/** Door access given (or taken) by an admin to a staff member at a gym, independent of standing. */
export async function setStaffDoorAccess(
  organisationId: string,
  userId: string,
  gymId: string,
  enabled: boolean,
): Promise<DoorAccessRecord> {
  const records = await doorAccessRecords(organisationId, userId);
  return applyStaff(
    organisationId,
    userId,
    gymId,
    enabled,
    records.find((r) => r.holder === "staff" && r.gym_id === gymId),
  );
}

function applyStaff(
  organisationId: string,
  userId: string,
  gymId: string,
  enabled: boolean,
  existing: DoorAccessRecord | undefined,
) {
  return apply(
    organisationId,
    userId,
    {
      gym_id: gymId,
      holder: "staff",
      standing: enabled
        ? { standing: true, reason: "Staff door access given" }
        : { standing: false, reason: "Staff door access removed" },
      review_at: null,
    },
    existing,
  );
}

/** Deactivating a staff member takes away every staff door access they hold (member access stays with standing). */
export async function revokeStaffDoorAccess(organisationId: string, userId: string) {
  const held = (await doorAccessRecords(organisationId, userId)).filter(
    (r) => r.holder === "staff" && r.status === "granted",
  );
  for (const record of held) await applyStaff(organisationId, userId, record.gym_id, false, record);
}

/** How many visits a member has (one COUNT Query over their visits index, paged). */
export async function visitCount(organisationId: string, userId: string): Promise<number> {
  const key = db()
    .entities.visit.query.byMember({ organisation_id: organisationId, user_id: userId })
    .params() as {
    KeyConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
    IndexName: string;
  };
  let count = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const answer = await dynamo().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: key.IndexName,
        KeyConditionExpression: key.KeyConditionExpression,
        ExpressionAttributeNames: key.ExpressionAttributeNames,
        ExpressionAttributeValues: key.ExpressionAttributeValues,
        Select: "COUNT",
        ExclusiveStartKey: cursor,
      }),
    );
    count += answer.Count ?? 0;
    cursor = answer.LastEvaluatedKey;
  } while (cursor);
  return count;
}
