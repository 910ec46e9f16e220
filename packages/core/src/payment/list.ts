/**
 * Staff lists of payments (`GET /api/payments`, `GET /api/users/{id}/payments`) and the reads
 * the export and debugging pages share. Every read is a Query on the organisation's payments
 * (gsi1, ids sort by due date) or a member's (gsi2): never a Scan, never every payment.
 *
 *  - Date range → key condition on the id's time part (a scheduled payment's id is a ULID whose
 *    time is the start of its due day, ids.ts), so a month reads that month only.
 *  - Status, type and gym → filter expression, read in bounded batches: a page stops at
 *    `per_page` matches or after READ_BUDGET items read, whichever is first, and answers a cursor
 *    to go on (a page may then hold fewer than `per_page`; follow `next_cursor` until null).
 *  - Trainers (and gym admins) see their gyms' payments only: the filter names their gyms.
 */
import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { addDays, type CivilDate, startOfAucklandDay } from "../billing/calendar";
import {
  memberPaymentsQuery,
  type Payment,
  type PaymentFilters,
  paymentListQuery,
  paymentMessages,
} from "../contract/payment";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { NotFoundError, ValidationError } from "../errors";
import { roleIn } from "../user/roles";
import { parse } from "../validation";
import { deterministicUlid } from "./ids";
import { presentPayment } from "./present";
import { presentQuotedPage } from "./quoted-page";
import type { PaymentRecord } from "./store";

export const DEFAULT_PER_PAGE = 25;

/** A page of payments as the contract names them (the presenter's answer must fit `Payment`). */
export interface PaymentPage {
  data: Payment[];
  next_cursor: string | null;
  per_page: number;
}
/** Items one list request may read before it answers what it has (and a cursor). */
export const READ_BUDGET = 2_000;

/** Counts of what the list queries read (the bench reports them). */
export const listStats = { queries: 0, items: 0 };

/** The gyms a query covers: one asked-for gym (404 outside reach) or every reachable one. */
export function gymsInScope(reachable: string[], gymId: string | undefined): string[] {
  if (gymId === undefined) return reachable;
  if (!reachable.includes(gymId)) throw new NotFoundError("gym");
  return [gymId];
}

// Cursors: the DynamoDB key of the last item answered, base64url JSON, checked against the
// partition the query reads (a cursor of another organisation or list is refused, 422).
type Key = Record<string, string>;

function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

function decodeCursor(
  cursor: string | undefined,
  partition: { name: string; value: string },
  names: string[],
) {
  if (!cursor) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (
      key &&
      typeof key === "object" &&
      names.every((n) => typeof (key as Key)[n] === "string") &&
      Object.keys(key).length === names.length &&
      (key as Key)[partition.name] === partition.value
    )
      return key as Key;
  } catch {
    // fall through
  }
  throw ValidationError.field("cursor", paymentMessages.cursor);
}

const ULID_MIN = "0".repeat(26);
const ULID_MAX = "Z".repeat(26);

/** The smallest id of a payment due on or after `from`, and the largest due on or before `to`. */
export function idBounds(from?: CivilDate, to?: CivilDate): { lo: string; hi: string } {
  const lo = from ? deterministicUlid(startOfAucklandDay(from), "").slice(0, 10) + "0".repeat(16) : ULID_MIN;
  const hi = to
    ? deterministicUlid(new Date(startOfAucklandDay(addDays(to, 1)).getTime() - 1), "").slice(0, 10) +
      "Z".repeat(16)
    : ULID_MAX;
  return { lo, hi };
}

interface RawPage {
  items: PaymentRecord[];
  /** Raw key of the last item handed out, or DynamoDB's LastEvaluatedKey when it stopped early. */
  next: Key | null;
}

/**
 * Reads a Query batch by batch until `perPage` items match or `budget` items were read. With no
 * filter the Query asks for one item more than a page, so the last page answers no cursor.
 */
export async function pagedQuery(
  base: QueryCommandInput,
  keyNames: string[],
  perPage: number,
  start: Key | undefined,
  budget = READ_BUDGET,
): Promise<RawPage> {
  const filtered = Boolean(base.FilterExpression);
  const out: PaymentRecord[] = [];
  let exclusive: Key | undefined = start;
  let lastRaw: Key | undefined;
  let read = 0;
  for (;;) {
    const want = perPage - out.length;
    // With a filter, read enough for the rest of the page at the match rate seen so far.
    const rate = read > 0 ? Math.max(out.length, 1) / read : 0.25;
    const limit = filtered ? Math.min(Math.max(Math.ceil((want / rate) * 1.2), 100), 1000) : want + 1;
    const answer = await dynamo().send(
      new QueryCommand({ ...base, Limit: limit, ExclusiveStartKey: exclusive }),
    );
    listStats.queries += 1;
    listStats.items += answer.ScannedCount ?? 0;
    read += answer.ScannedCount ?? 0;
    const raw = (answer.Items ?? []) as Key[];
    const parsed = db().entities.payment.parse({ Items: raw }).data as PaymentRecord[];
    for (let i = 0; i < raw.length; i++) {
      // One more match than a page: the page ends at the item before it.
      if (out.length === perPage && lastRaw) return { items: out, next: keyOf(lastRaw, keyNames) };
      out.push(parsed[i]);
      lastRaw = raw[i];
    }
    if (!answer.LastEvaluatedKey) return { items: out, next: null };
    exclusive = answer.LastEvaluatedKey as Key;
    if (out.length === perPage || read >= budget) return { items: out, next: keyOf(exclusive, keyNames) };
  }
}

function keyOf(item: Key, names: string[]): Key {
  const out: Key = {};
  for (const n of names) out[n] = item[n];
  return out;
}

type Where = (
  attributes: Record<string, unknown>,
  op: { eq: (attribute: unknown, value: unknown) => string },
) => string;

/** The filter expression of the list's filters, or null when there is none. */
function filterOf(filters: Pick<PaymentFilters, "status" | "type">, gymIds: string[] | null): Where | null {
  if (!filters.status && !filters.type && !gymIds) return null;
  return (a, op) => {
    const parts: string[] = [];
    if (filters.status) parts.push(op.eq(a.status, filters.status));
    if (filters.type) parts.push(op.eq(a.type, filters.type));
    if (gymIds) parts.push(`(${gymIds.map((g) => op.eq(a.gym_id, g)).join(" OR ")})`);
    return parts.join(" AND ");
  };
}

const ORG_KEYS = ["pk", "sk", "gsi1pk", "gsi1sk"];
const MEMBER_KEYS = ["pk", "sk", "gsi2pk", "gsi2sk"];

/** The organisation's payments in scope, newest first, one page. */
export async function organisationPaymentsPage(input: {
  organisationId: string;
  /** Narrow to these gyms; null: every gym of the organisation (no gym filter). */
  gymIds: string[] | null;
  filters: Pick<PaymentFilters, "status" | "type" | "from" | "to">;
  cursor?: string;
  perPage: number;
  order?: "asc" | "desc";
  budget?: number;
}) {
  if (input.gymIds && input.gymIds.length === 0) return { items: [] as PaymentRecord[], next_cursor: null };
  const { lo, hi } = idBounds(input.filters.from, input.filters.to);
  const query = db()
    .entities.payment.query.byOrganisation({ organisation_id: input.organisationId })
    .between({ payment_id: lo }, { payment_id: hi });
  const where = filterOf(input.filters, input.gymIds);
  const params = (where ? query.where(where as never) : query).params({
    order: input.order ?? "desc",
  }) as QueryCommandInput;
  cleanParams(params);
  const start = decodeCursor(
    input.cursor,
    { name: "gsi1pk", value: String(params.ExpressionAttributeValues?.[":pk"]) },
    ORG_KEYS,
  );
  const page = await pagedQuery(params, ORG_KEYS, input.perPage, start, input.budget);
  return { items: page.items, next_cursor: page.next ? encodeCursor(page.next) : null };
}

/** The gym filter a staff member's list needs: none for an organisation admin's whole list. */
export function gymFilterOf(actor: Actor, gymId: string | undefined, reachable = staffGymIds(actor)) {
  const gyms = gymsInScope(reachable, gymId);
  return actor.orgRole === "admin" && gymId === undefined ? null : gyms;
}

/** ElectroDB leaves an empty filter expression when the where callback adds nothing. */
function cleanParams(params: QueryCommandInput) {
  if (params.FilterExpression !== undefined && params.FilterExpression.trim() === "") {
    delete params.FilterExpression;
  }
  const used = `${params.KeyConditionExpression ?? ""} ${params.FilterExpression ?? ""}`;
  for (const name of Object.keys(params.ExpressionAttributeNames ?? {})) {
    if (!used.includes(name)) delete params.ExpressionAttributeNames?.[name];
  }
  for (const name of Object.keys(params.ExpressionAttributeValues ?? {})) {
    if (!used.includes(name)) delete params.ExpressionAttributeValues?.[name];
  }
  delete params.Limit;
}

/** `GET /api/payments`: the organisation's payments the staff member may see, newest first, upcoming rows as quoted. */
export async function listPayments(actor: Actor, query: unknown): Promise<PaymentPage> {
  const organisationId = staffOrganisation(actor);
  const values = parse(paymentListQuery, query);
  const perPage = values.per_page ?? DEFAULT_PER_PAGE;
  const page = await organisationPaymentsPage({
    organisationId,
    gymIds: gymFilterOf(actor, values.gym_id),
    filters: values,
    cursor: values.cursor,
    perPage,
  });
  // Upcoming rows as quoted (payment/quoted-page.ts): the figure the member's page and emails show.
  const data = await presentQuotedPage(organisationId, page.items);
  return { data, next_cursor: page.next_cursor, per_page: perPage };
}

/** `GET /api/users/{id}/payments`: one member's payments at the staff member's gyms, newest first. */
export async function listMemberPayments(actor: Actor, userId: string, query: unknown): Promise<PaymentPage> {
  const organisationId = staffOrganisation(actor);
  const values = parse(memberPaymentsQuery, query);
  const role = await roleIn(organisationId, userId);
  if (!role) throw new NotFoundError("user");
  const reachable = staffGymIds(actor);
  const perPage = values.per_page ?? DEFAULT_PER_PAGE;
  const q = db().entities.payment.query.byMember({ organisation_id: organisationId, user_id: userId });
  if (actor.orgRole !== "admin" && reachable.length === 0)
    return { data: [], next_cursor: null, per_page: perPage };
  const where = filterOf({}, actor.orgRole === "admin" ? null : reachable);
  const params = (where ? q.where(where as never) : q).params({ order: "desc" }) as QueryCommandInput;
  cleanParams(params);
  const start = decodeCursor(
    values.cursor,
    { name: "gsi2pk", value: String(params.ExpressionAttributeValues?.[":pk"]) },
    MEMBER_KEYS,
  );
  const page = await pagedQuery(params, MEMBER_KEYS, perPage, start);
  return {
    data: page.items.map(presentPayment),
    next_cursor: page.next ? encodeCursor(page.next) : null,
    per_page: perPage,
  };
}
