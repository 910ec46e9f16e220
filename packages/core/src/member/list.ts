/** `GET /api/members`: the list with its filters and sorts (the CSV export, export.ts, shares `matchingMembers`). */
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { businessNow } from "../clock";
import { type MemberListItem, memberListQuery, memberMessages } from "../contract/member";
import { getMany } from "../db/get-many";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { priceInEffect } from "../subscription/states";
import type { SubscriptionRecord } from "../subscription/store";
import { titleCase } from "../text";
import { profilePictureUrl } from "../user/picture";
import { parse } from "../validation";
import { type MemberRecord, reaches } from "./service";
import { stateOf, summaryOf } from "./state";

export const DEFAULT_PER_PAGE = 25;
/** Member records one list request may read before it answers what it has (and a cursor). */
export const MEMBER_READ_BUDGET = 2_000;

function presentListItem(
  member: MemberRecord,
  sub: SubscriptionRecord | null,
  now: Date,
  profile: ProfileRecord | null | undefined,
): MemberListItem {
  const summary = sub ? summaryOf(sub, now) : null;
  return {
    id: member.user_id,
    name: titleCase(member.name),
    email: member.email,
    joined_at: member.joined_at,
    gym_ids: member.gym_ids,
    tags: member.tags ?? [],
    deleted_at: member.deleted_at ?? null,
    state: summary?.state ?? "none",
    card_colour: summary?.card_colour ?? null,
    latest_subscription: summary,
    profile_picture: profilePictureUrl(profile?.profile_picture),
  };
}

interface Cursor {
  s: string;
  u: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(value: string | undefined): Cursor | null {
  if (!value) return null;
  try {
    const c = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Cursor;
    if (c && typeof c.s === "string" && typeof c.u === "string" && Object.keys(c).length === 2) return c;
  } catch {
    // fall through
  }
  throw ValidationError.field("cursor", memberMessages.cursor);
}

export interface MemberPage {
  data: MemberListItem[];
  next_cursor: string | null;
  per_page: number;
}

/**
 * `GET /api/members`: the organisation's members sorted by name (gsi1) or join date (gsi2), one
 * Query from the cursor on. Filters that need the latest subscription (state, gym, offering,
 * price, payment type) read it by BatchGet for each batch of members (their photos in the same BatchGet) and are applied in memory:
 * a page stops at `per_page` matches or after MEMBER_READ_BUDGET members read (then a cursor).
 */
export async function listMembers(actor: Actor, query: unknown): Promise<MemberPage> {
  const values = parse(memberListQuery, query);
  const perPage = values.per_page ?? DEFAULT_PER_PAGE;
  const now = await businessNow();
  // Each batch's photos come in the BatchGet of its subscriptions (one request, not two).
  const page = await matchingMembers(actor, values, perPage, now, { profiles: true });
  return {
    data: page.rows.map(({ member, sub, profile }) => presentListItem(member, sub, now, profile)),
    next_cursor: page.next_cursor,
    per_page: perPage,
  };
}

export type MemberListFilters = ReturnType<typeof memberListQuery.parse>;

export interface MemberRow {
  member: MemberRecord;
  sub: SubscriptionRecord | null;
  /** This organisation's profile of the member, when asked for (`profiles`). */
  profile?: ProfileRecord | null;
}

type ProfileRecord = { user_id: string; profile_picture?: string; mobile_number?: string };

/**
 * A batch's latest subscriptions and, when asked, its members' profiles: one BatchGet of both
 * (getMany: more than 100 keys go in batches side by side).
 */
async function batchRecords(organisationId: string, batch: MemberRecord[], profiles: boolean) {
  const subscriptionIds = [
    ...new Set(batch.flatMap((m) => (m.latest_subscription_id ? [m.latest_subscription_id] : []))),
  ];
  const userIds = profiles ? batch.map((m) => m.user_id) : [];
  const found = await getMany([
    ...subscriptionIds.map((subscription_id) => ({
      entity: db().entities.subscription,
      key: { organisation_id: organisationId, subscription_id },
    })),
    ...userIds.map((user_id) => ({
      entity: db().entities.memberProfile,
      key: { organisation_id: organisationId, user_id },
    })),
  ]);
  const subs = new Map<string, SubscriptionRecord>();
  for (const sub of found.slice(0, subscriptionIds.length) as (SubscriptionRecord | null)[])
    if (sub) subs.set(sub.subscription_id, sub);
  const profileOf = new Map<string, ProfileRecord | null>(
    userIds.map((id, i) => [id, found[subscriptionIds.length + i] as ProfileRecord | null]),
  );
  return { subs, profileOf };
}

/**
 * One page of the members matching the list's filters (the list and the CSV export share it).
 * Members come sorted by name (gsi1) or join date (gsi2), one Query from the cursor on. Filters
 * that need the latest subscription (state, gym, offering, price, payment type) read it by
 * BatchGet for each batch of members and are applied in memory: a page stops at `perPage` matches
 * or after MEMBER_READ_BUDGET members read (then a cursor).
 */
export async function matchingMembers(
  actor: Actor,
  values: MemberListFilters,
  perPage: number,
  now: Date,
  /** `profiles`: each row's profile too (the list's photos, the export's mobiles), in its batch's read. */
  options: { profiles?: boolean } = {},
): Promise<{ rows: MemberRow[]; next_cursor: string | null }> {
  const organisationId = staffOrganisation(actor);
  const reachable = staffGymIds(actor);
  if (values.gym_id && !reachable.includes(values.gym_id)) throw new NotFoundError("gym");
  const sort = values.sort ?? "name";
  const order = values.order ?? (sort === "joined" ? "desc" : "asc");
  const start = decodeCursor(values.cursor);
  const needsSub = Boolean(
    values.state || values.gym_id || values.offering_id || values.price_id || values.payment_type,
  );
  const out: MemberRow[] = [];
  let after = start;
  let read = 0;
  for (;;) {
    const want = perPage - out.length;
    const limit = needsSub || values.tag || actor.orgRole !== "admin" ? Math.max(100, want + 1) : want + 1;
    const batch = await memberBatch(organisationId, sort, order, after, limit);
    read += batch.length;
    const { subs, profileOf } = await batchRecords(organisationId, batch, Boolean(options.profiles));
    for (let i = 0; i < batch.length; i++) {
      const member = batch[i];
      const sub = member.latest_subscription_id ? (subs.get(member.latest_subscription_id) ?? null) : null;
      if (matches(actor, member, sub, values, now)) {
        if (out.length === perPage) {
          const last = batch[i - 1] ?? null;
          return {
            rows: out,
            next_cursor: last ? encodeCursor(keyOf(last, sort)) : encodeCursor(after!),
          };
        }
        out.push(
          options.profiles
            ? { member, sub, profile: profileOf.get(member.user_id) ?? null }
            : { member, sub },
        );
      }
      after = keyOf(member, sort);
    }
    if (batch.length < limit) return { rows: out, next_cursor: null };
    if (read >= Math.max(MEMBER_READ_BUDGET, perPage * 4))
      return { rows: out, next_cursor: after ? encodeCursor(after) : null };
  }
}

function keyOf(member: MemberRecord, sort: "name" | "joined"): Cursor {
  return { s: sort === "name" ? member.name_key : member.joined_at, u: member.user_id };
}

async function memberBatch(
  organisationId: string,
  sort: "name" | "joined",
  order: "asc" | "desc",
  after: Cursor | null,
  limit: number,
): Promise<MemberRecord[]> {
  const entity = db().entities.member;
  if (sort === "name") {
    const q = entity.query.byName({ organisation_id: organisationId });
    const ranged = after
      ? order === "asc"
        ? q.gt({ name_key: after.s, user_id: after.u })
        : q.lt({ name_key: after.s, user_id: after.u })
      : q;
    const { data } = await ranged.go({ order, limit, pages: 1 });
    return data;
  }
  const q = entity.query.byJoined({ organisation_id: organisationId });
  const ranged = after
    ? order === "asc"
      ? q.gt({ joined_at: after.s, user_id: after.u })
      : q.lt({ joined_at: after.s, user_id: after.u })
    : q;
  const { data } = await ranged.go({ order, limit, pages: 1 });
  return data;
}

function matches(
  actor: Actor,
  member: MemberRecord,
  sub: SubscriptionRecord | null,
  f: ReturnType<typeof memberListQuery.parse>,
  now: Date,
): boolean {
  if (f.deleted === "only" ? !member.deleted_at : member.deleted_at) return false;
  if (!reaches(actor, member, sub)) return false;
  if (f.tag && !(member.tags ?? []).some((t) => t.toLowerCase() === f.tag!.toLowerCase())) return false;
  if (f.state && stateOf(sub, now) !== f.state) return false;
  if (f.gym_id && !(sub ? sub.gym_id === f.gym_id : member.gym_ids.includes(f.gym_id))) return false;
  // The price in effect (a scheduled change that has taken effect), as the row and member page show.
  const price = sub && (f.offering_id || f.price_id) ? priceInEffect(sub, now) : null;
  if (f.offering_id && price?.offering_id !== f.offering_id) return false;
  if (f.price_id && price?.price_id !== f.price_id) return false;
  if (f.payment_type && sub?.payment_method !== f.payment_type) return false;
  return true;
}
