import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import type { Actor } from "../auth/actor";
import { authorize, currentOrganisation, inOrganisation, policy } from "../auth/policy";
import { db } from "../db/service";
import { ValidationError } from "../errors";
import { newId } from "../ids";
import { redactBody } from "./redact";

export type WebhookProvider = "stripe" | "akahu" | "kisi";
export type WebhookOutcome = "accepted" | "rejected" | "duplicate" | "error";

export const GLOBAL_PARTITION = "global";
export const WEBHOOK_LOG_DAYS = 90;

export interface RecordedCall {
  call_id: string;
  outcome: WebhookOutcome;
}

const expiry = (at: Date) => Math.floor(at.getTime() / 1000) + WEBHOOK_LOG_DAYS * 86_400;

/** Records one inbound call as it was answered. */
export async function recordWebhookCall(input: {
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
}): Promise<RecordedCall> {
  const receivedAt = input.receivedAt ?? new Date();
  const callId = input.callId ?? newId();
  await db()
    .entities.webhookCall.create({
      partition: input.organisationId ?? GLOBAL_PARTITION,
      call_id: callId,
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
    })
    .go();
  return { call_id: callId, outcome: input.outcome };
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

type CallRecord = Awaited<ReturnType<typeof fetchPage>>["data"][number];

function shape(call: CallRecord) {
  let body: unknown = call.body;
  try {
    body = JSON.parse(call.body);
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

export type WebhookCall = ReturnType<typeof shape>;

async function fetchPage(partition: string, query: WebhookCallQuery) {
  const perPage = Math.min(Math.max(query.per_page ?? 25, 1), 100);
  const options = { order: "desc" as const, limit: perPage, cursor: query.cursor ?? null };
  const now = Math.floor(Date.now() / 1000);
  const request = query.provider
    ? db().entities.webhookCall.query.byProvider({ partition, provider: query.provider })
    : db().entities.webhookCall.query.primary({ partition });
  const filtered = request.where((attr, op) =>
    query.outcome
      ? `${op.gt(attr.expires_at, now)} AND ${op.eq(attr.outcome, query.outcome)}`
      : op.gt(attr.expires_at, now),
  );
  try {
    return await filtered.go(options);
  } catch (error) {
    if (query.cursor && /cursor/i.test((error as Error).message))
      throw ValidationError.field("cursor", "The cursor is not valid");
    throw error;
  }
}

/**
 * A page of the organisation's inbound calls, newest first: one Query on the organisation's
 * partition (by provider: on gsi1). The outcome filter is a filter on that query, so a page may
 * hold fewer than `per_page` calls; keep following `next_cursor` until it is null.
 */
export async function listWebhookCalls(organisationId: string, query: WebhookCallQuery) {
  const page = await fetchPage(organisationId, query);
  return {
    data: page.data.map(shape),
    next_cursor: page.cursor ?? null,
    per_page: Math.min(Math.max(query.per_page ?? 25, 1), 100),
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
