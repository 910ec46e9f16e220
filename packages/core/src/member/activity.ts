/**
 * The member's activity log (`GET /api/members/{id}/activity`): an audit record written by each
 * operation as it happens (staff edits with the changed fields, sign-up, lifecycle changes,
 * payments), never reconstructed from other records. `recordActivity` is the one writer (a
 * settlement writes the same record, `activityRecord`, in its own transaction); a failure to log
 * never undoes the operation that was already committed (it is logged instead).
 */
import type { MemberActivity } from "../contract/member";
import { db } from "../db/service";
import { newId } from "../ids";
import { log } from "../log";
import { titleCase } from "../text";
import { getUserOrNull } from "../user/service";

export interface ActivityInput {
  organisation_id: string;
  user_id: string;
  kind: string;
  summary: string;
  detail?: string;
  /** The staff member (or member) who did it; absent for the system. */
  actor_id?: string;
  subscription_id?: string;
  payment_id?: string;
  changes?: { field: string; from?: string; to?: string }[];
  at?: Date;
  /**
   * An outbox event's id, when an outbox handler records the entry (outbox/outbox.ts): the entry's
   * id, so a redelivered event writes it once, and a failure is thrown (the event is delivered again).
   */
  event_id?: string;
}

/** The activity record of an entry (`actor_name` given when there is an actor). */
export function activityRecord(input: ActivityInput, actorName?: string) {
  return {
    organisation_id: input.organisation_id,
    user_id: input.user_id,
    activity_id: input.event_id ?? newId(),
    kind: input.kind,
    summary: input.summary,
    detail: input.detail,
    actor_id: input.actor_id,
    actor_name: actorName,
    subscription_id: input.subscription_id,
    payment_id: input.payment_id,
    changes: input.changes,
    at: (input.at ?? new Date()).toISOString(),
  };
}

export async function recordActivity(input: ActivityInput): Promise<void> {
  try {
    const actor = input.actor_id ? await getUserOrNull(input.actor_id) : null;
    await db().entities.memberActivity.create(activityRecord(input, actor?.name)).go();
  } catch (error) {
    if (input.event_id) {
      // Written by an earlier delivery of the same event: done. Any other failure: delivered again.
      if (/conditional/i.test(String((error as { message?: string })?.message))) return;
      throw error;
    }
    log.error("member_activity_not_recorded", {
      organisation_id: input.organisation_id,
      user_id: input.user_id,
      kind: input.kind,
      error: String(error),
    });
  }
}

type ActivityRecord = Awaited<ReturnType<typeof activityPage>>["items"][number];

export async function activityPage(
  organisationId: string,
  userId: string,
  cursor: string | null,
  limit: number,
) {
  const { data, cursor: next } = await db()
    .entities.memberActivity.query.primary({ organisation_id: organisationId, user_id: userId })
    .go({ order: "desc", cursor, limit });
  return { items: data, next_cursor: next ?? null };
}

export function presentActivity(record: ActivityRecord): MemberActivity {
  return {
    id: record.activity_id,
    kind: record.kind,
    summary: record.summary,
    detail: record.detail ?? null,
    at: record.at,
    by: record.actor_id ? { id: record.actor_id, name: titleCase(record.actor_name ?? "") } : null,
    subscription_id: record.subscription_id ?? null,
    payment_id: record.payment_id ?? null,
    changes: (record.changes ?? []).map((c) => ({ field: c.field, from: c.from ?? null, to: c.to ?? null })),
  };
}
