/**
 * Staff lists of payments (`GET /api/payments`, `GET /api/users/{id}/payments`) and the reads
 * the export and debugging pages share. Every read is a Query: never a Scan, never every payment.
 *
 *  - The organisation's list walks the list index (gsi5: `<organisation_id>#<YYYY-MM>` of the due
 *    date / `<due_on>#<payment_id>`, projecting the list's fields only) month by month, newest
 *    first, over the months the organisation has payments in (months.ts): one Query names the
 *    months, then one Query per month read. The cursor names the month and the key in it.
 *  - Date range → the months walked and a key condition on the due date inside them.
 *  - Status, type and gym → filter expression, read in bounded batches: a page stops at
 *    `per_page` matches or after READ_BUDGET items read (or MONTHS_PER_PAGE months), whichever is
 *    first, and answers a cursor to go on (a page may then hold fewer than `per_page`; follow
 *    `next_cursor` until null).
 *  - Trainers (and gym admins) see their gyms' payments only: the filter names their gyms.
 *  - The export, the expected-payments page and the accounting reads of a date range walk the
 *    list index like the list (the accounting ones oldest first). A member's list reads gsi2
 *    (their payments, ids sort by due date).
 */
import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Actor } from "../auth/actor";
import { staffGymIds, staffOrganisation } from "../auth/scope";
import { businessToday } from "../clock";
import { config } from "../config";
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
import { monthOf, paymentMonths } from "./months";
import { presentPayment } from "./present";
import { presentQuotedPage } from "./quoted-page";
import { monthPartition, type PaymentRecord } from "./store";

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

interface RawPage {
  items: PaymentRecord[];
  /** Each item's raw key (`keyNames`), so a page cut shorter can answer where it stopped. */
  keys: Key[];
  /** Raw key of the last item handed out, or DynamoDB's LastEvaluatedKey when it stopped early. */
  next: Key | null;
  /** Items read (matched or not). */
  read: number;
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
  const keys: Key[] = [];
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
      if (out.length === perPage && lastRaw)
        return { items: out, keys, next: keyOf(lastRaw, keyNames), read };
      out.push(parsed[i]);
      keys.push(keyOf(raw[i], keyNames));
      lastRaw = raw[i];
    }
    if (!answer.LastEvaluatedKey) return { items: out, keys, next: null, read };
    exclusive = answer.LastEvaluatedKey as Key;
    if (out.length === perPage || read >= budget)
      return { items: out, keys, next: keyOf(exclusive, keyNames), read };
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

const MEMBER_KEYS = ["pk", "sk", "gsi2pk", "gsi2sk"];

const MONTH_KEYS = ["pk", "sk", "gsi5pk", "gsi5sk"];
/** Months one page may read (beyond them it answers what it has, and a cursor). */
export const MONTHS_PER_PAGE = 12;

/**
 * Where a walk of the list index goes on: a month's partition (`<organisation_id>#<YYYY-MM>`, so
 * another organisation's cursor is refused), and the key in it after which to read.
 */
interface MonthCursor {
  p: string;
  k?: Key;
}

/** The month a cursor goes on at (422 for a cursor of another organisation, or none). */
function decodeMonthCursor(
  cursor: string | undefined,
  organisationId: string,
): { m: string; k?: Key } | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as MonthCursor;
    const { p, k } = value ?? {};
    const m = typeof p === "string" ? p.slice(organisationId.length + 1) : "";
    const keyOk =
      k === undefined ||
      (k !== null &&
        typeof k === "object" &&
        Object.keys(k).length === MONTH_KEYS.length &&
        MONTH_KEYS.every((n) => typeof k[n] === "string") &&
        k.gsi5pk === p);
    if (
      /^\d{4}-\d{2}$/.test(m) &&
      p === monthPartition(organisationId, m) &&
      Object.keys(value).length <= 2 &&
      keyOk
    )
      return { m, k };
  } catch {
    // fall through
  }
  throw ValidationError.field("cursor", paymentMessages.cursor);
}

/** The Query of one month of the list index, due dates within the range, filters applied. */
function monthQuery(
  organisationId: string,
  month: string,
  filters: Pick<PaymentFilters, "status" | "type" | "from" | "to">,
  gymIds: string[] | null,
): QueryCommandInput {
  const names: Record<string, string> = { "#k": "gsi5pk", "#s": "gsi5sk" };
  const values: Record<string, unknown> = {
    ":k": monthPartition(organisationId, month),
    ":lo": filters.from ?? "0000-00-00",
    ":hi": `${filters.to ?? "9999-99-99"}#~`,
  };
  const parts: string[] = [];
  if (filters.status) {
    names["#status"] = "status";
    values[":status"] = filters.status;
    parts.push("#status = :status");
  }
  if (filters.type) {
    names["#type"] = "type";
    values[":type"] = filters.type;
    parts.push("#type = :type");
  }
  if (gymIds) {
    names["#gym"] = "gym_id";
    gymIds.forEach((g, i) => {
      values[`:gym${i}`] = g;
    });
    parts.push(`#gym IN (${gymIds.map((_, i) => `:gym${i}`).join(", ")})`);
  }
  return {
    TableName: config.tableName,
    IndexName: "gsi5",
    KeyConditionExpression: "#k = :k AND #s BETWEEN :lo AND :hi",
    ...(parts.length ? { FilterExpression: parts.join(" AND ") } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/**
 * The organisation's payments in scope, newest first (by due date, then id; `order: "asc"`
 * oldest first), one page: the months it has payments in, from the cursor's (or the range's
 * end) on, one Query each. The month the page most likely starts in is read beside the months
 * Query (one round for both): the cursor's month, else the range's end (its start, oldest first),
 * else the month of `today` (a newest-first list with no range: where its newest payments usually
 * are). When the months say the page starts elsewhere, that read waits for its turn (or is
 * dropped: a month with no payments is never named).
 */
export async function monthlyPaymentsPage(input: {
  organisationId: string;
  /** Narrow to these gyms; null: every gym of the organisation (no gym filter). */
  gymIds: string[] | null;
  filters: Pick<PaymentFilters, "status" | "type" | "from" | "to">;
  cursor?: string;
  perPage: number;
  order?: "asc" | "desc";
  budget?: number;
  /** The business date: its month is read beside the months when nothing else names the first. */
  today?: string;
}) {
  const cursor = decodeMonthCursor(input.cursor, input.organisationId);
  const asc = input.order === "asc";
  if (input.gymIds && input.gymIds.length === 0) return { items: [] as PaymentRecord[], next_cursor: null };
  const budget = input.budget ?? READ_BUDGET;
  const to = input.filters.to ? monthOf(input.filters.to) : undefined;
  const from = input.filters.from ? monthOf(input.filters.from) : undefined;
  const sorted = (ms: (string | undefined)[]) => ms.filter((m): m is string => Boolean(m)).sort();
  // Newest first: from the cursor's month (or the range's end) down; oldest first: up.
  const newest = asc ? to : sorted([cursor?.m, to])[0];
  const oldest = asc ? sorted([cursor?.m, from]).at(-1) : from;
  if (newest && oldest && newest < oldest) return { items: [] as PaymentRecord[], next_cursor: null };
  const readMonth = (month: string, perPage: number, budgetLeft: number) =>
    pagedQuery(
      { ...monthQuery(input.organisationId, month, input.filters, input.gymIds), ScanIndexForward: asc },
      MONTH_KEYS,
      perPage,
      cursor && cursor.m === month ? cursor.k : undefined,
      budgetLeft,
    );
  const guess = asc ? oldest : (newest ?? (input.today ? monthOf(input.today) : undefined));
  const [months, early] = await Promise.all([
    paymentMonths(input.organisationId, { newest, oldest }, MONTHS_PER_PAGE + 1, asc ? "asc" : "desc"),
    guess ? readMonth(guess, input.perPage, budget) : undefined,
  ]);
  listStats.queries += 1;
  const items: PaymentRecord[] = [];
  let read = 0;
  const next = (month: string, k?: Key) => {
    const c: MonthCursor = { p: monthPartition(input.organisationId, month), ...(k ? { k } : {}) };
    return { items, next_cursor: Buffer.from(JSON.stringify(c)).toString("base64url") };
  };
  for (let i = 0; i < Math.min(months.length, MONTHS_PER_PAGE); i++) {
    const month = months[i];
    const want = input.perPage - items.length;
    // The month read beside the months was read for a whole page: cut to what is left of it.
    const page = early && month === guess ? cut(early, want) : await readMonth(month, want, budget - read);
    items.push(...page.items);
    read += page.read;
    if (page.next) return next(month, page.next);
    const following = months[i + 1];
    if (!following) return { items, next_cursor: null };
    if (items.length === input.perPage || read >= budget || i + 1 === MONTHS_PER_PAGE) return next(following);
  }
  return { items, next_cursor: null };
}

/** The first `want` items of a month's page, and where they stop when there are more. */
function cut(page: RawPage, want: number): RawPage {
  if (page.items.length <= want) return page;
  return {
    ...page,
    items: page.items.slice(0, want),
    keys: page.keys.slice(0, want),
    next: page.keys[want - 1],
  };
}

/** The month before `month` (`YYYY-MM`). */
function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** The months from `from`'s to `to`'s (`YYYY-MM`), oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = monthOf(to); m >= monthOf(from); m = previousMonth(m)) out.unshift(m);
  return out;
}

/**
 * Every payment of a short date range (a few months: the expected-payments page's days ahead),
 * oldest first: the range's months are known, so no months Query, and they are read side by
 * side, each until `budget` items were read in all (`partial` then).
 */
export async function rangePayments(input: {
  organisationId: string;
  filters: Pick<PaymentFilters, "status" | "type"> & { from: string; to: string };
  budget: number;
}): Promise<{ items: PaymentRecord[]; partial: boolean }> {
  const months = monthsBetween(input.filters.from, input.filters.to);
  const share = Math.ceil(input.budget / months.length);
  const pages = await Promise.all(
    months.map((month) =>
      pagedQuery(
        { ...monthQuery(input.organisationId, month, input.filters, null), ScanIndexForward: true },
        MONTH_KEYS,
        share,
        undefined,
        share,
      ),
    ),
  );
  return { items: pages.flatMap((p) => p.items), partial: pages.some((p) => p.next !== null) };
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
  const page = await monthlyPaymentsPage({
    organisationId,
    gymIds: gymFilterOf(actor, values.gym_id),
    filters: values,
    cursor: values.cursor,
    perPage,
    today: await businessToday(),
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
