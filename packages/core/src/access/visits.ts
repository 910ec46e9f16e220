/**
 * Visits from door events (docs/access-control.md): a Kisi unlock confirmed by Kisi, on a door of
 * a gym that tracks visits, by someone we gave door access to, becomes one visit. Written by ONE
 * function, `recordVisit`, in a DynamoDB transaction keyed by the Kisi event id.
 */
import type { EntityItem } from "electrodb";
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { addDays, aucklandDate, type CivilDate, startOfAucklandDay } from "../billing/calendar";
import { passOf } from "../billing/pass";
import { type Visit, visitListQuery, visitMessages } from "../contract/access";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { getGym } from "../gym/service";
import { log } from "../log";
import { findMember, memberInReach } from "../member/service";
import { subjectOf, visitChange, writeCounted } from "../rollup/writes";
import { findSubscription } from "../subscription/store";
import { titleCase } from "../text";
import { getUserOrNull } from "../user/service";
import { parse } from "../validation";
import type { VerifiedWebhook } from "../webhook-log/receive";
import type { visitEntity } from "./entity";
import { passVisitWrite } from "./pass";
import { syncDoorAccessQuietly, userOfKisiUser } from "./sync";

export type VisitRecord = EntityItem<typeof visitEntity>;

export interface VisitInput {
  organisation_id: string;
  event_id: string;
  gym_id: string;
  user_id: string;
  visited_at: string;
  successful: boolean;
  member_name?: string;
  gym_name?: string;
  door_id?: string;
  door_name?: string;
}

/**
 * Writes one visit, once per Kisi event id (a conditional create inside a transaction): a second
 * call with the same event id changes nothing and answers "duplicate".
 */
export async function recordVisit(input: VisitInput): Promise<"recorded" | "duplicate"> {
  // A successful visit also counts in the dashboard's rollups (per gym per day, per offering, and
  // the member's month for cost per visit), in the same transaction: the visit's conditional
  // create makes it count once. The offering is the member's latest membership's. A visit pass's
  // count is in the same transaction too (docs/offers.md "Visit passes").
  const day = aucklandDate(new Date(input.visited_at));
  const sub = input.successful ? await latestSubscriptionOf(input.organisation_id, input.user_id) : null;
  const offeringId = sub ? (subjectOf(sub, day).offering_id ?? null) : null;
  const pass = passVisitWrite(sub, day);
  let recorded = await writeVisit(input, day, offeringId, pass?.item ?? null);
  // The pass's condition failed (the day was counted, or the last visit taken, beside this one):
  // the visit is written again using none.
  if (recorded === "not_recorded" && pass) recorded = await writeVisit(input, day, offeringId, null);
  if (recorded === "not_recorded") throw new Error("the visit was not recorded");
  return recorded;
}

async function writeVisit(
  input: VisitInput,
  day: CivilDate,
  offeringId: string | null,
  // biome-ignore lint/suspicious/noExplicitAny: the transaction's subscription entity
  passItem: ((subscription: any) => unknown) | null,
): Promise<"recorded" | "duplicate" | "not_recorded"> {
  const counted = input.successful
    ? [
        visitChange({
          organisation_id: input.organisation_id,
          gym_id: input.gym_id,
          offering_id: offeringId,
          user_id: input.user_id,
          member_name: input.member_name,
          day,
          pass: passItem !== null,
        }),
      ]
    : [];
  const { canceled } = await writeCounted(counted, (items) =>
    db()
      .transaction.write(({ visit, rollup, memberMonth, churnRisk, subscription }) => [
        visit
          .create({
            ...input,
            ...(offeringId ? { offering_id: offeringId } : {}),
            ...(passItem ? { pass_visit_used: true } : {}),
          })
          .commit({ response: "all_old" }),
        ...(passItem ? [passItem(subscription) as never] : []),
        ...items({ rollup, memberMonth, churnRisk }),
      ])
      .go(),
  );
  if (!canceled) {
    if (passItem) await closeDoorAfterLastVisit(input, day);
    return "recorded";
  }
  const { data } = await db()
    .entities.visit.get({ organisation_id: input.organisation_id, event_id: input.event_id })
    .go();
  return data ? "duplicate" : "not_recorded";
}

/**
 * After a pass's last visit the door is synced at once: standing holds for the rest of the day,
 * and the review at the next midnight takes the door away (access/standing.ts `nextReview`).
 */
async function closeDoorAfterLastVisit(input: VisitInput, day: CivilDate) {
  const sub = await latestSubscriptionOf(input.organisation_id, input.user_id);
  const pass = sub ? passOf(sub) : null;
  if (pass && pass.used >= pass.visits && pass.last_visit_on === day)
    await syncDoorAccessQuietly(input.organisation_id, input.user_id);
}

/** The member's latest membership (after a move to another offering's price, that one). */
async function latestSubscriptionOf(organisationId: string, userId: string) {
  const member = await findMember(organisationId, userId);
  if (!member?.latest_subscription_id) return null;
  return (await findSubscription(organisationId, member.latest_subscription_id)) ?? null;
}

const text = (value: unknown) => (value === undefined || value === null ? null : String(value));

/**
 * The Kisi webhook handler: an accepted unlock (confirmed by Kisi) on a visit-tracking door. The
 * visit is what Kisi's API said about the event (`confirmed_by_kisi`: its door, actor, time and
 * success), never what the webhook body claims: a body is only as good as the URL secret it
 * came with.
 */
export async function visitFromKisiEvent(
  event: VerifiedWebhook,
): Promise<"recorded" | "duplicate" | "ignored"> {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const confirmed = payload.confirmed_by_kisi as Record<string, unknown> | undefined;
  if (!confirmed || !event.organisationId || !event.gymId || !event.eventId) return "ignored";
  const gym = await getGym(event.organisationId, event.gymId).catch(() => null);
  const doorId = text(confirmed.lock_id);
  const door = gym?.doors?.find((d) => d.door_id === doorId);
  if (!gym || !door?.tracks_visits) return "ignored";
  const kisiUserId = text(confirmed.actor_id);
  const userId = kisiUserId ? await userOfKisiUser(event.organisationId, kisiUserId) : null;
  if (!userId) {
    log.warn("kisi unlock by someone without door access from us", { event_id: event.eventId });
    return "ignored";
  }
  const user = await getUserOrNull(userId);
  return recordVisit({
    organisation_id: event.organisationId,
    event_id: event.eventId,
    gym_id: gym.gym_id,
    user_id: userId,
    visited_at: new Date(
      text(confirmed.created_at) ?? text(payload.created_at) ?? new Date().toISOString(),
    ).toISOString(),
    successful: confirmed.success !== false,
    member_name: user?.name,
    gym_name: gym.name,
    door_id: door.door_id,
    door_name: door.name,
  });
}

export function presentVisit(v: VisitRecord): Visit {
  return {
    id: v.event_id,
    user_id: v.user_id,
    member_name: v.member_name ? titleCase(v.member_name) : null,
    gym_id: v.gym_id,
    gym_name: v.gym_name ?? null,
    door_id: v.door_id ?? null,
    door_name: v.door_name ?? null,
    visited_at: v.visited_at,
    successful: v.successful,
    pass_visit: v.pass_visit_used === true,
  };
}

type Range = { from?: string; to?: string };

/** One page of a visits Query, newest first, inside the Auckland days [from, to]. */
async function visitPage(
  query:
    | { index: "byGym"; organisation_id: string; gym_id: string }
    | { index: "byMember"; organisation_id: string; user_id: string }
    | { index: "byOrganisation"; organisation_id: string },
  range: Range,
  page: { cursor?: string; per_page?: number },
  gymIds?: string[],
) {
  const from = range.from ? startOfAucklandDay(range.from as CivilDate).toISOString() : null;
  const to = range.to ? startOfAucklandDay(addDays(range.to as CivilDate, 1)).toISOString() : null;
  const { index, ...key } = query;
  // biome-ignore lint/suspicious/noExplicitAny: one call over three indexes with the same sort key
  const q: any = (db().entities.visit.query as any)[index](key);
  const ranged =
    from && to
      ? q.between({ visited_at: from }, { visited_at: to })
      : from
        ? q.gte({ visited_at: from })
        : to
          ? q.lt({ visited_at: to })
          : q;
  const filtered = gymIds
    ? ranged.where(
        (a: { gym_id: string }, op: { eq: (x: unknown, y: string) => string }) =>
          gymIds.map((g) => op.eq(a.gym_id, g)).join(" OR ") || "attribute_not_exists(pk)",
      )
    : ranged;
  const perPage = page.per_page ?? 50;
  try {
    const { data, cursor } = await filtered.go({
      order: "desc",
      cursor: page.cursor ?? null,
      limit: perPage,
    });
    return {
      data: (data as VisitRecord[]).map(presentVisit),
      next_cursor: cursor ?? null,
      per_page: perPage,
    };
  } catch (error) {
    if (page.cursor) throw ValidationError.field("cursor", visitMessages.cursor);
    throw error;
  }
}

/** `GET /api/visits`: the organisation's visits (trainers: their gyms) by gym, member and date range. */
export async function listVisits(actor: Actor, query: unknown) {
  const organisationId = staffOrganisation(actor);
  const v = parse(visitListQuery, query);
  const reachable = staffGymIds(actor);
  if (v.gym_id && !reachable.includes(v.gym_id)) throw new NotFoundError("gym");
  if (v.user_id) {
    await memberInReach(actor, v.user_id);
    const gyms = v.gym_id ? [v.gym_id] : actor.orgRole === "admin" ? undefined : reachable;
    return visitPage({ index: "byMember", organisation_id: organisationId, user_id: v.user_id }, v, v, gyms);
  }
  if (v.gym_id) return visitPage({ index: "byGym", organisation_id: organisationId, gym_id: v.gym_id }, v, v);
  if (actor.orgRole !== "admin" && reachable.length === 1)
    return visitPage({ index: "byGym", organisation_id: organisationId, gym_id: reachable[0] }, v, v);
  return visitPage(
    { index: "byOrganisation", organisation_id: organisationId },
    v,
    v,
    actor.orgRole === "admin" ? undefined : reachable,
  );
}

/** `GET /api/users/{id}/visits`: one member's visits. */
export async function listUserVisits(actor: Actor, userId: string, query: unknown) {
  const q = { ...((query as Record<string, unknown>) ?? {}), user_id: userId };
  delete (q as { gym_id?: unknown }).gym_id;
  return listVisits(actor, q);
}
