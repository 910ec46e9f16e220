/**
 * Staff calls on members (spec 001 §7 Members): the list with its filters and sorts, one member
 * with their latest subscription and its derived states, the staff edit (with an activity entry
 * naming each changed field), soft deletion and restoring. Every call is scoped to the actor's
 * organisation (another organisation's ids are not found) and, for trainers and gym admins, to
 * members of their gyms. docs/members.md.
 */

import type { EntityItem } from "electrodb";
import { doorAccessRecords, visitCount } from "../access/sync";
import type { Actor } from "../auth/actor";
import { authorize } from "../auth/policy";
import { adminGymIds, staffGymIds, staffOrganisation } from "../auth/scope";
import { businessNow } from "../clock";
import {
  type Member,
  type MemberListItem,
  type MemberState,
  type MemberSubscription,
  memberActivityQuery,
  memberFieldLabels,
  memberListQuery,
  memberMessages,
  memberUpdateInput,
} from "../contract/member";
import { paymentTypeLabel } from "../contract/payment-type-label";
import { db } from "../db/service";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { listGyms } from "../gym/service";
import { presentPayment } from "../payment/present";
import { listMemberPayments } from "../payment/store";
import { memberAkahuConnection } from "../payment-type/bank-connection";
import { listPaymentTypeRecords } from "../payment-type/service";
import { presentSubscription } from "../subscription/present";
import { latestPaymentOf } from "../subscription/service";
import { derivedStatesOf, priceInEffect } from "../subscription/states";
import {
  findSubscriptions,
  isLive,
  memberSubscriptions,
  type SubscriptionRecord,
} from "../subscription/store";
import { titleCase } from "../text";
import { profilePicturesOf, profilePictureUrl } from "../user/picture";
import { roleIn } from "../user/roles";
import { findUserByEmail, getUserOrNull } from "../user/service";
import { parse } from "../validation";
import { presentActivity, recordActivity } from "./activity";
import type { memberEntity } from "./entity";
import { indexMember, unindexMember } from "./search-index";

export type MemberRecord = EntityItem<typeof memberEntity>;

export const DEFAULT_PER_PAGE = 25;
/** Member records one list request may read before it answers what it has (and a cursor). */
export const MEMBER_READ_BUDGET = 2_000;

// ---------------------------------------------------------------------------------------------
// Reading a member within reach

/** The member record of someone in the organisation; a member from before the member record existed is indexed on first sight. */
export async function findMember(organisationId: string, userId: string): Promise<MemberRecord | null> {
  const { data } = await db().entities.member.get({ organisation_id: organisationId, user_id: userId }).go();
  if (data) return data;
  const role = await roleIn(organisationId, userId);
  if (!role || role.member_gym_ids.length === 0) return null;
  await indexMember({ organisation_id: organisationId, user_id: userId, gym_ids: role.member_gym_ids });
  const { data: made } = await db()
    .entities.member.get({ organisation_id: organisationId, user_id: userId })
    .go();
  return made ?? null;
}

/** Organisation admins reach every member; other staff the members of their gyms. */
function reaches(actor: Actor, member: MemberRecord, sub?: SubscriptionRecord | null): boolean {
  if (actor.orgRole === "admin") return true;
  const mine = staffGymIds(actor);
  return member.gym_ids.some((g) => mine.includes(g)) || (sub ? mine.includes(sub.gym_id) : false);
}

export async function memberInReach(actor: Actor, userId: string) {
  const organisationId = staffOrganisation(actor);
  const member = await findMember(organisationId, userId);
  if (!member) throw new NotFoundError("member");
  const sub = await latestSubscriptionOf(member);
  if (!reaches(actor, member, sub)) throw new NotFoundError("member");
  return { organisationId, member, sub };
}

async function latestSubscriptionOf(member: MemberRecord): Promise<SubscriptionRecord | null> {
  if (member.latest_subscription_id) {
    const found = await findSubscriptions([
      { organisation_id: member.organisation_id, subscription_id: member.latest_subscription_id },
    ]);
    const sub = found.get(member.latest_subscription_id);
    if (sub) return sub;
  }
  const subs = await memberSubscriptions(member.organisation_id, member.user_id);
  return subs[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// States

/** The one state a member is shown and filtered by: their latest subscription's §4 state. */
export function stateOf(sub: SubscriptionRecord | null, now: Date): MemberState {
  if (!sub) return "none";
  const s = derivedStatesOf(sub, now);
  if (s.is_cancelled) return "cancelled";
  if (s.in_grace_period) return "grace";
  if (s.is_paused) return "paused";
  if (s.is_upcoming) return "upcoming";
  return "active";
}

/** Does the latest subscription still charge (live and not cancelled)? Such a member cannot be deleted. */
export function stillCharges(sub: SubscriptionRecord | null, now: Date): boolean {
  if (!sub) return false;
  if (!isLive(sub, now)) return false;
  return !sub.cancelled_at;
}

export function summaryOf(
  sub: SubscriptionRecord,
  now: Date,
): NonNullable<MemberListItem["latest_subscription"]> {
  const s = derivedStatesOf(sub, now);
  const price = priceInEffect(sub, now);
  return {
    id: sub.subscription_id,
    state: stateOf(sub, now),
    card_colour: s.card_colour,
    gym: { id: sub.gym_id, name: sub.gym_name ?? "" },
    offering: { id: price.offering_id, name: price.offering_name ?? "" },
    price: { id: price.price_id, label: price.price_label ?? null },
    payment_method: sub.payment_method,
    membership_type: s.membership_type,
  };
}

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

// ---------------------------------------------------------------------------------------------
// The list

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
 * price, payment type) read it by BatchGet for each batch of members and are applied in memory:
 * a page stops at `per_page` matches or after MEMBER_READ_BUDGET members read (then a cursor).
 */
export async function listMembers(actor: Actor, query: unknown): Promise<MemberPage> {
  const values = parse(memberListQuery, query);
  const perPage = values.per_page ?? DEFAULT_PER_PAGE;
  const now = await businessNow();
  const page = await matchingMembers(actor, values, perPage, now);
  const pictures = await profilePicturesOf(page.rows.map((row) => row.member.user_id));
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
    const subs = await findSubscriptions(
      batch
        .filter((m) => m.latest_subscription_id)
        .map((m) => ({ organisation_id: organisationId, subscription_id: m.latest_subscription_id! })),
    );
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

// ---------------------------------------------------------------------------------------------
// One member

export async function readMember(actor: Actor, userId: string): Promise<Member> {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  const now = await businessNow();
  const [user, paymentTypes, payments, akahu, gyms, doors, visits] = await Promise.all([
    getUserOrNull(userId),
    listPaymentTypeRecords(organisationId, userId),
    listMemberPayments(organisationId, userId, { limit: 10 }),
    memberAkahuConnection(organisationId, userId).catch(() => null),
    listGyms(organisationId),
    doorAccessRecords(organisationId, userId),
    visitCount(organisationId, userId),
  ]);
  if (!user) throw new NotFoundError("member");
  const subs = sub ? await memberSubscriptions(organisationId, userId) : [];
  const subView = sub ? await subscriptionView(sub, payments.items, now) : null;
  const def = paymentTypes.find((p) => p.is_default) ?? null;
  return {
    id: userId,
    name: titleCase(user.name),
    email: user.email,
    mobile_number: user.mobile_number ?? null,
    dob: user.dob ?? null,
    email_notifications_enabled: user.email_notifications_enabled ?? true,
    push_notifications_enabled: user.push_notifications_enabled ?? true,
    payment_reminders: user.payment_reminders ?? true,
    emergency_contact: {
      name: user.emergency_contact_name ?? null,
      email: user.emergency_contact_email ?? null,
      mobile_number: user.emergency_contact_mobile_number ?? null,
      relationship: user.emergency_contact_relationship ?? null,
    },
    latest_subscription: subView,
    state: stateOf(sub, now),
    default_payment_type: def
      ? { id: def.payment_type_id, type: def.type, label: paymentTypeLabel(def) }
      : null,
    payment_types: paymentTypes.map((p) => ({
      id: p.payment_type_id,
      type: p.type,
      label: paymentTypeLabel(p),
      status: p.status,
      is_default: p.is_default,
    })),
    // Newest due first (a break fee or manual payment is recorded later than the payments around it).
    recent_payments: [...payments.items]
      .sort((a, b) =>
        a.due_on === b.due_on ? b.payment_id.localeCompare(a.payment_id) : b.due_on.localeCompare(a.due_on),
      )
      .map(presentPayment),
    profile_picture: profilePictureUrl(user.profile_picture),
    visits_count: visits,
    notes: member.notes ?? null,
    access_control_credentials: doors
      .filter((d) => d.holder === "member" && d.credential_id)
      .map((d) => ({ id: d.credential_id as string, status: d.status })),
    reauthenticate_akahu: def?.type === "bank_account" && def.status === "reauthenticate",
    has_akahu_connection: Boolean(akahu),
    is_returning_member: subs.length > 1,
    address: user.address ?? null,
    suburb: user.suburb ?? null,
    city: user.city ?? null,
    post_code: user.post_code ?? null,
    confidence_and_experience: user.confidence_and_experience ?? null,
    hear_about_us: user.hear_about_us ?? null,
    tags: member.tags ?? [],
    gyms: gyms.filter((g) => member.gym_ids.includes(g.gym_id)).map((g) => ({ id: g.gym_id, name: g.name })),
    should_onboard: !user.password_hash,
    invited_at: null,
    created_at: member.joined_at,
    updated_at: member.updated_at,
    deleted_at: member.deleted_at ?? null,
  };
}

async function subscriptionView(
  sub: SubscriptionRecord,
  recent: Awaited<ReturnType<typeof listMemberPayments>>["items"],
  now: Date,
): Promise<MemberSubscription> {
  const mine = recent.filter((p) => p.subscription_id === sub.subscription_id);
  const upcoming =
    mine.filter((p) => p.status === "upcoming").sort((a, b) => (a.due_on < b.due_on ? -1 : 1))[0] ?? null;
  const view = presentSubscription(sub, {
    now,
    upcomingPayment: upcoming,
    firstPayment: mine.find((p) => p.payment_id === sub.first_payment_id) ?? null,
    latestPayment: latestPaymentOf(sub, mine),
  });
  const { payments: _p, ...rest } = view;
  return rest as MemberSubscription;
}

// ---------------------------------------------------------------------------------------------
// Staff edit

type UserRecord = NonNullable<Awaited<ReturnType<typeof getUserOrNull>>>;

const MEMBER_CONSENT_FIELDS = [
  "email_notifications_enabled",
  "push_notifications_enabled",
  "payment_reminders",
] as const;

/** `PUT /api/members/{id}`: organisation admins and admins of the member's gym (trainers read only). */
export async function updateMember(actor: Actor, userId: string, body: unknown): Promise<Member> {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  const values = parse(memberUpdateInput, body);
  const mine = adminGymIds(actor);
  authorize(
    actor.orgRole === "admin" ||
      member.gym_ids.some((g) => mine.includes(g)) ||
      (sub ? mine.includes(sub.gym_id) : false),
    "Only an admin of this member's gym can change their details.",
  );
  // The notification switches are the member's consent: only they change them (docs/communications.md).
  const consent = MEMBER_CONSENT_FIELDS.filter((field) => values[field] !== undefined);
  if (consent.length)
    throw new ValidationError(Object.fromEntries(consent.map((f) => [f, [memberMessages.memberConsent]])));
  const user = await getUserOrNull(userId);
  if (!user) throw new NotFoundError("member");
  // The page shows names title-cased: sending back the shown name is not a rename.
  const name = values.name === undefined || values.name === titleCase(user.name) ? user.name : values.name;
  const email = values.email ?? user.email;
  if (email !== user.email) {
    const other = await findUserByEmail(email);
    if (other && other.user_id !== userId)
      throw ValidationError.field("email", "Another account already uses this email.");
  }
  const next: Partial<UserRecord> = { name, email };
  const put = <K extends keyof UserRecord>(key: K, value: UserRecord[K] | null | undefined) => {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  };
  put("mobile_number", values.mobile_number);
  put("dob", values.dob);
  put("address", values.address);
  put("suburb", values.suburb);
  put("city", values.city);
  put("post_code", values.post_code);
  put("emergency_contact_name", values.emergency_contact?.name);
  put("emergency_contact_email", values.emergency_contact?.email);
  put("emergency_contact_mobile_number", values.emergency_contact?.mobile_number);
  put("emergency_contact_relationship", values.emergency_contact?.relationship);
  if (values.dob && values.dob > new Date().toISOString().slice(0, 10))
    throw ValidationError.field("dob", memberMessages.dobFuture);

  const changes: { field: string; from?: string; to?: string }[] = [];
  const text = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : String(v));
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(next)) {
    const before = (user as Record<string, unknown>)[key];
    if (text(before) === text(value)) continue;
    changes.push({ field: key, from: text(before), to: text(value) });
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  if (Object.keys(set).length || remove.length) {
    let patch = db()
      .entities.user.patch({ user_id: userId })
      .set(set as never);
    if (remove.length) patch = patch.remove(remove as never);
    await patch.go();
  }

  const memberSet: Record<string, unknown> = {};
  const memberRemove: string[] = [];
  if (values.notes !== undefined && text(values.notes) !== text(member.notes)) {
    changes.push({ field: "notes", from: text(member.notes), to: text(values.notes) });
    if (values.notes === null) memberRemove.push("notes");
    else memberSet.notes = values.notes;
  }
  if (values.tags !== undefined && values.tags.join(", ") !== (member.tags ?? []).join(", ")) {
    changes.push({
      field: "tags",
      from: text((member.tags ?? []).join(", ")),
      to: text(values.tags.join(", ")),
    });
    memberSet.tags = values.tags;
  }
  if (Object.keys(memberSet).length || memberRemove.length) {
    let patch = db()
      .entities.member.patch({ organisation_id: organisationId, user_id: userId })
      .set(memberSet as never);
    if (memberRemove.length) patch = patch.remove(memberRemove as never);
    await patch.go();
  }
  if (name !== user.name || email !== user.email) {
    await indexMember({ organisation_id: organisationId, user_id: userId, name, email });
  }
  if (changes.length) {
    await recordActivity({
      organisation_id: organisationId,
      user_id: userId,
      kind: "member_updated",
      summary:
        changes.length === 1 && changes[0].field === "notes"
          ? "Notes edited"
          : `Details edited: ${changes.map((c) => memberFieldLabels[c.field] ?? c.field).join(", ")}`,
      actor_id: actor.userId,
      changes,
    });
  }
  return readMember(actor, userId);
}

// ---------------------------------------------------------------------------------------------
// Soft delete and restore

/** `DELETE /api/members/{id}`: organisation admins; refused (409) while the membership still charges. */
export async function deleteMember(actor: Actor, userId: string) {
  const { organisationId, member, sub } = await memberInReach(actor, userId);
  authorize(actor.orgRole === "admin", "Only an organisation admin can delete a member.");
  if (member.deleted_at) return { id: userId, deleted: true as const };
  const now = await businessNow();
  if (stillCharges(sub, now)) throw new ConflictError(memberMessages.deleteCharging, "membership_charging");
  const at = new Date().toISOString();
  await db()
    .entities.member.patch({ organisation_id: organisationId, user_id: userId })
    .set({ deleted_at: at, deleted_by: actor.userId })
    .go();
  await unindexMember(organisationId, userId, member.search_terms ?? []);
  await recordActivity({
    organisation_id: organisationId,
    user_id: userId,
    kind: "member_deleted",
    summary: "Member deleted",
    actor_id: actor.userId,
  });
  return { id: userId, deleted: true as const };
}

/** `POST /api/members/{id}/restore`: organisation admins bring a deleted member back. */
export async function restoreMember(actor: Actor, userId: string): Promise<Member> {
  const { organisationId, member } = await memberInReach(actor, userId);
  authorize(actor.orgRole === "admin", "Only an organisation admin can restore a member.");
  if (member.deleted_at) {
    await db()
      .entities.member.patch({ organisation_id: organisationId, user_id: userId })
      .remove(["deleted_at", "deleted_by"])
      .go();
    await indexMember({ organisation_id: organisationId, user_id: userId });
    await recordActivity({
      organisation_id: organisationId,
      user_id: userId,
      kind: "member_restored",
      summary: "Member restored",
      actor_id: actor.userId,
    });
  }
  return readMember(actor, userId);
}

// ---------------------------------------------------------------------------------------------
// Activity

export async function listMemberActivity(actor: Actor, userId: string, query: unknown) {
  const { organisationId } = await memberInReach(actor, userId);
  const values = parse(memberActivityQuery, query);
  const perPage = values.per_page ?? 50;
  let cursor: string | null = null;
  if (values.cursor) {
    try {
      const raw = JSON.parse(Buffer.from(values.cursor, "base64url").toString("utf8")) as { a?: unknown };
      if (typeof raw.a !== "string") throw new Error("cursor");
      cursor = raw.a;
    } catch {
      throw ValidationError.field("cursor", memberMessages.cursor);
    }
  }
  const { data } = await (cursor
    ? db()
        .entities.memberActivity.query.primary({ organisation_id: organisationId, user_id: userId })
        .lt({ activity_id: cursor })
    : db().entities.memberActivity.query.primary({ organisation_id: organisationId, user_id: userId })
  ).go({ order: "desc", limit: perPage + 1, pages: 1 });
  const page = data.slice(0, perPage);
  const more = data.length > perPage;
  return {
    data: page.map(presentActivity),
    next_cursor: more
      ? Buffer.from(JSON.stringify({ a: page.at(-1)!.activity_id })).toString("base64url")
      : null,
    per_page: perPage,
  };
}
