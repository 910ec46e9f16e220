/** `GET /api/members`: the list with its filters and sorts (the CSV export, export.ts, shares `matchingMembers`). */
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { businessNow } from "../clock";
import { type MemberListItem, memberListQuery, memberMessages } from "../contract/member";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { priceInEffect } from "../subscription/states";
import { findSubscriptions, type SubscriptionRecord } from "../subscription/store";
import { titleCase } from "../text";
import { profilePicturesOf } from "../user/picture";
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
  pictures: Map<string, string | null>,
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
    profile_picture: pictures.get(member.user_id) ?? null,
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
 * price, payment type) read it by BatchGet for each batch of members (their photos beside it) and are applied in memory:
 * a page stops at `per_page` matches or after MEMBER_READ_BUDGET members read (then a cursor).
 */
export async function listMembers(actor: Actor, query: unknown): Promise<MemberPage> {
  const values = parse(memberListQuery, query);
  const perPage = values.per_page ?? DEFAULT_PER_PAGE;
  const now = await businessNow();
  // Each batch's photos are read beside its subscriptions (one round), not after the page is known.
  const photoReads: Promise<Map<string, string | null>>[] = [];
  const page = await matchingMembers(actor, values, perPage, now, (batch) => {
    const read = profilePicturesOf(
      staffOrganisation(actor),
      batch.map((member) => member.user_id),
    );
    photoReads.push(read);
    return read;
  });
  const pictures = new Map((await Promise.all(photoReads)).flatMap((read) => [...read]));
  return {
    data: page.rows.map(({ member, sub }) => presentListItem(member, sub, now, pictures)),
    next_cursor: page.next_cursor,
    per_page: perPage,
  };
}

export type MemberListFilters = ReturnType<typeof memberListQuery.parse>;

export interface MemberRow {
  member: MemberRecord;
  sub: SubscriptionRecord | null;
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
  /** Read beside each batch's subscriptions (the list's photos). */
  alongside?: (batch: MemberRecord[]) => Promise<unknown>,
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
    const [subs] = await Promise.all([
      findSubscriptions(
        batch
          .filter((m) => m.latest_subscription_id)
          .map((m) => ({ organisation_id: organisationId, subscription_id: m.latest_subscription_id! })),
      ),
      alongside?.(batch),
    ]);
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
        out.push({ member, sub });
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
