import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { ConflictError } from "../errors";
import { peopleDelta } from "../gym/counts";
import { deliverCommitted, outboxEvent, outboxItem } from "../outbox/outbox";
import { staffIndexKeys } from "./role-entity";

export type OrgRole = "admin" | "none";
export type GymRole = "admin" | "personal_trainer";

/** A role as written: the user's roles in one organisation. */
export type RoleWritten = {
  organisation_id: string;
  user_id: string;
  org_role: OrgRole;
  gym_roles: { gym_id: string; role: GymRole }[];
  member_gym_ids: string[];
};

/**
 * Writes a user's role in an organisation and, in the same transaction, the staff and member
 * counters it changes (gym/counts.ts), and its `role_written` outbox event (the members layer
 * re-indexes the member search, member/hooks.ts; delivered after the commit, outbox/outbox.ts). The
 * role write is conditioned on the record being as read, so two writes at once cannot both count
 * from the same starting point; the loser retries.
 */
export async function putRole(input: {
  organisation_id: string;
  user_id: string;
  org_role?: OrgRole;
  gym_roles?: { gym_id: string; role: GymRole }[];
  member_gym_ids?: string[];
}) {
  const next = roleOf(input);
  for (let attempt = 0; attempt < 5; attempt++) {
    const { data: before } = await db()
      .entities.role.get({ organisation_id: input.organisation_id, user_id: input.user_id })
      .go();
    const delta = peopleDelta(before, next);
    const event = outboxEvent("role_written", {
      organisation_id: next.organisation_id,
      user_id: next.user_id,
      member_gym_ids: next.member_gym_ids,
    });
    const { canceled } = await db()
      .transaction.write(({ role, gymPeople, outboxEvent: outbox }) => [
        outboxItem({ outboxEvent: outbox }, event),
        role
          .put({ ...next, ...staffIndexKeys(next) })
          .where((attr, op) =>
            before ? op.eq(attr.updated_at, before.updated_at) : op.notExists(attr.user_id),
          )
          .commit(),
        ...[...delta].map(([scope, change]) =>
          gymPeople.update({ organisation_id: input.organisation_id, scope }).add(change).commit(),
        ),
      ])
      .go();
    if (!canceled) {
      await deliverCommitted(event);
      return { ...next };
    }
  }
  throw new ConflictError("The role changed while it was being saved. Please try again.");
}

type RoleInput = Parameters<typeof putRole>[0];

function roleOf(input: RoleInput): RoleWritten {
  return {
    organisation_id: input.organisation_id,
    user_id: input.user_id,
    org_role: input.org_role ?? "none",
    gym_roles: input.gym_roles ?? [],
    member_gym_ids: input.member_gym_ids ?? [],
  };
}

/**
 * The first role of a user the caller creates in its own transaction (register): the record to
 * create (conditional on there being none, as putRole's) and the counters it adds to, each an
 * ADD in that same transaction. The caller writes what the `role_written` reaction would (the
 * member record and its search terms) in it too, so it writes no event.
 */
export function firstRole(input: RoleInput) {
  const role = roleOf(input);
  return { role, record: { ...role, ...staffIndexKeys(role) }, counters: [...peopleDelta(null, role)] };
}

/** A user's role records in every organisation they belong to (one index query). */
export async function rolesOfUser(userId: string) {
  const { data } = await db().entities.role.query.byUser({ user_id: userId }).go({ pages: "all" });
  return data.filter((role) => !role.deleted_at);
}

/**
 * The organisation's live staff roles, from the sparse staff index (role-entity.ts): tens of items
 * however many members the organisation has.
 */
export async function staffRolesOf(organisationId: string) {
  const out: RoleRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const answer = await dynamo().send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: "gsi2",
        KeyConditionExpression: "#k = :k",
        ExpressionAttributeNames: { "#k": "gsi2pk" },
        ExpressionAttributeValues: { ":k": `staff#${organisationId}` },
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(db().entities.role.parse({ Items: answer.Items ?? [] }).data as RoleRecord[]));
    start = answer.LastEvaluatedKey;
  } while (start);
  return out.filter((role) => !role.deleted_at && isStaffRole(role));
}

type RoleRecord = NonNullable<Awaited<ReturnType<typeof roleIn>>>;

export async function roleIn(organisationId: string, userId: string) {
  const { data } = await db().entities.role.get({ organisation_id: organisationId, user_id: userId }).go();
  return data && !data.deleted_at ? data : null;
}

export function isStaffRole(role: { org_role: OrgRole; gym_roles: { role: GymRole }[] }): boolean {
  return role.org_role === "admin" || role.gym_roles.length > 0;
}
