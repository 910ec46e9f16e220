/** `GET /api/members/{id}/activity`: the member's activity log, newest first (written by activity.ts). */
import type { Actor } from "../auth/actor";
import { memberActivityQuery, memberMessages } from "../contract/member";
import { db } from "../db/service";
import { ValidationError } from "../errors";
import { parse } from "../validation";
import { presentActivity } from "./activity";
import { memberInReach } from "./service";

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
