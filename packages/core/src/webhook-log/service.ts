import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inOrganisation, policy } from "../auth/policy";
import type {
  JsonValue,
  WebhookCall,
  WebhookOutcomeName,
  WebhookProviderName,
} from "../contract/webhook-call";
import { db } from "../db/service";
import { ValidationError } from "../errors";
import { newId } from "../ids";
import { redactBody } from "../redact";

export type WebhookProvider = WebhookProviderName;
export type WebhookOutcome = WebhookOutcomeName;

export const GLOBAL_PARTITION = "global";
export const WEBHOOK_LOG_DAYS = 90;

export interface RecordedCall {
  call_id: string;
  outcome: WebhookOutcome;
}

const expiry = (at: Date) => Math.floor(at.getTime() / 1000) + WEBHOOK_LOG_DAYS * 86_400;

export interface WebhookCallInput {
  provider: WebhookProvider;
  organisationId: string | null;
  gymId?: string | null;
  eventType: string;
  eventId?: string | null;
  outcome: WebhookOutcome;
  statusCode: number;
  detail?: string | null;
  rawBody: string;
  callId?: string;
  receivedAt?: Date;
}

/** The log record of one inbound call as it was answered. */
export function webhookCallRecord(input: WebhookCallInput) {
  const receivedAt = input.receivedAt ?? new Date();
  return {
    partition: input.organisationId ?? GLOBAL_PARTITION,
    call_id: input.callId ?? newId(),
    provider: input.provider,
    event_type: input.eventType.slice(0, 200) || "unknown",
    event_id: input.eventId?.slice(0, 200) || undefined,
    gym_id: input.gymId ?? undefined,
    received_at: receivedAt.toISOString(),
    outcome: input.outcome,
    status_code: input.statusCode,
    detail: input.detail?.slice(0, 500) || undefined,
    body: redactBody(input.rawBody),
    expires_at: expiry(receivedAt),
  };
}

/** Records one inbound call as it was answered. */
export async function recordWebhookCall(input: WebhookCallInput): Promise<RecordedCall> {
  const record = webhookCallRecord(input);
  await db().entities.webhookCall.create(record).go();
  return { call_id: record.call_id, outcome: input.outcome };
}

/**
 * Marks a provider event id as seen (conditional create). False when it was seen before: the
 * call is a redelivery and is recorded as `duplicate` without being handled again.
 */
export async function claimEvent(
  provider: WebhookProvider,
  eventId: string,
  callId: string,
): Promise<boolean> {
  try {
    await db()
      .entities.webhookReceipt.create({
        provider,
        event_id: eventId,
        call_id: callId,
        expires_at: expiry(new Date()),
      })
      .go();
    return true;
  } catch (error) {
    const cause = (error as { cause?: { name?: string } }).cause;
    if (cause instanceof ConditionalCheckFailedException || cause?.name === "ConditionalCheckFailedException")
      return false;
    throw error;
  }
}

/** Lets a failed event be handled again when the provider retries it. */
export async function releaseEvent(provider: WebhookProvider, eventId: string) {
  await db().entities.webhookReceipt.delete({ provider, event_id: eventId }).go();
}

export interface WebhookCallQuery {
  provider?: WebhookProvider;
  outcome?: WebhookOutcome;
  cursor?: string | null;
  per_page?: number;
}

type CallRecord = Awaited<ReturnType<typeof fetchBatch>>["data"][number];

function shape(call: CallRecord): WebhookCall {
  let body: JsonValue = call.body;
  try {
    body = JSON.parse(call.body) as JsonValue;
  } catch {
    // kept as text
  }
  return {
    id: call.call_id,
    provider: call.provider,
    event_type: call.event_type,
    event_id: call.event_id ?? null,
    gym_id: call.gym_id ?? null,
    received_at: call.received_at,
    outcome: call.outcome,
    status_code: call.status_code,
    detail: call.detail ?? null,
    body,
  };
}

export type { WebhookCall };

/**
 * The page cursor is this query's own: the id of the last call a page returned, as base64url
 * JSON `{"after": "<call id>"}`. Anything else (another query's key, a forged shape) is a 422,
 * never a key handed to DynamoDB.
 */
const CALL_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const encodeCursor = (callId: string) => Buffer.from(JSON.stringify({ after: callId })).toString("base64url");
function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      value &&
      typeof value === "object" &&
      Object.keys(value).length === 1 &&
      typeof value.after === "string" &&
      CALL_ID.test(value.after)
    )
      return value.after;
  } catch {
    // falls through to the 422
  }
  throw ValidationError.field("cursor", "The cursor is not valid");
}

/** One Query round: calls older than `after` (all when null), newest first, filtered. */
function fetchBatch(
  partition: string,
  query: WebhookCallQuery,
  after: string | null,
  limit: number,
  continuation: string | null,
) {
  const now = Math.floor(Date.now() / 1000);
  const base = query.provider
    ? db().entities.webhookCall.query.byProvider({ partition, provider: query.provider })
    : db().entities.webhookCall.query.primary({ partition });
  const bounded = after ? base.lt({ call_id: after }) : base;
  return bounded
    .where((attr, op) =>
      query.outcome
        ? `${op.gt(attr.expires_at, now)} AND ${op.eq(attr.outcome, query.outcome)}`
        : op.gt(attr.expires_at, now),
    )
    .go({ order: "desc", limit, cursor: continuation });
}

/** A filtered listing reads at most this many Query rounds for one page (then returns it short). */
const MAX_ROUNDS = 25;

/**
 * A page of the organisation's inbound calls, newest first: Queries on the organisation's
 * partition (by provider: on gsi1). The outcome filter applies after each Query, so rounds are
 * repeated until `per_page` calls were found or the partition ends; `next_cursor` is null at
 * the end.
 */
export async function listWebhookCalls(organisationId: string, query: WebhookCallQuery) {
  const perPage = Math.min(Math.max(query.per_page ?? 25, 1), 100);
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const found: CallRecord[] = [];
  let continuation: string | null = null;
  let more = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const batch = await fetchBatch(organisationId, query, after, perPage, continuation);
    found.push(...batch.data);
    continuation = batch.cursor ?? null;
    more = continuation !== null || found.length > perPage;
    if (found.length >= perPage || !continuation) break;
  }
  const page = found.slice(0, perPage);
  more = more || found.length > perPage;
  const last = page.at(-1);
  return {
    data: page.map(shape),
    next_cursor: more && last ? encodeCursor(last.call_id) : null,
    per_page: perPage,
  };
}

/** GET /api/webhook-calls: organisation admins, their current organisation's calls. */
export async function webhookCallsFor(actor: Actor, query: WebhookCallQuery) {
  authorize(policy.manageOrganisation(actor));
  return listWebhookCalls(currentOrganisation(actor), query);
}

/** GET /api/organisations/{id}/akahu-webhooks: the bank-feed webhooks of that organisation. */
export async function akahuWebhooksFor(
  actor: Actor,
  organisationId: string,
  query: Omit<WebhookCallQuery, "provider">,
) {
  inOrganisation(actor, organisationId);
  authorize(policy.manageOrganisation(actor));
  return listWebhookCalls(organisationId, { ...query, provider: "akahu" });
}
