import { newId } from "../ids";
import { addLogContext, log } from "../log";
import { webhookMetric } from "../metrics";
import {
  claimEvent,
  recordWebhookCall,
  releaseEvent,
  type WebhookOutcome,
  type WebhookProvider,
  webhookCallRecord,
} from "./service";

/**
 * What happens to a verified provider event. The billing and visits work register handlers
 * here (e.g. Stripe `payment_intent.succeeded`, Akahu `PAYMENT/UPDATE`, Kisi unlocks); until then
 * a verified event is recorded and acknowledged.
 */
export interface VerifiedWebhook {
  provider: WebhookProvider;
  organisationId: string | null;
  gymId: string | null;
  eventType: string;
  eventId: string | null;
  payload: unknown;
  /** What the receiver already read for the handlers (e.g. the payment a Stripe event names). */
  prefetched?: unknown;
  /**
   * Set by acceptWebhook: the call's log record as it will be answered when handled (`accepted`).
   * A handler that changes state in one transaction may write it there (`item` as a create) and
   * set `written`: the call is then logged with the change, in no request of its own. The event id
   * is claimed before any handler runs either way (a redelivery is `duplicate`).
   */
  acceptedCall?: AcceptedCall;
}

export interface AcceptedCall {
  item: ReturnType<typeof webhookCallRecord>;
  written: boolean;
}

/**
 * A handler answers nothing when it handled (or had nothing to do with) the event, or a refusal:
 * the event is genuine (verified) but is not bound to what it names (docs/providers.md "Binding
 * events"), so nothing was changed. A refusal is recorded as `refused` and answered 200 (the
 * provider must not retry it); the event id stays used.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: most handlers return nothing (void); a refusal is the exception
export type HandlerResult = void | { refused: string };
type Handler = (event: VerifiedWebhook) => Promise<HandlerResult>;
const handlers = new Map<WebhookProvider, Handler[]>();

export function onWebhook(provider: WebhookProvider, handler: Handler) {
  handlers.set(provider, [...(handlers.get(provider) ?? []), handler]);
}

export interface WebhookAnswer {
  status: 200 | 400 | 500;
  outcome: WebhookOutcome;
  call_id: string;
}

/**
 * A verified event: handled once (a redelivery of the same event id is `duplicate`), recorded,
 * answered 200. A handler failure is recorded as `error` and answered 500 so the provider retries.
 */
export async function acceptWebhook(
  event: VerifiedWebhook,
  rawBody: string,
  detail?: string,
): Promise<WebhookAnswer> {
  const callId = newId();
  addLogContext({ organisation_id: event.organisationId ?? undefined });
  const base = { ...event, gymId: event.gymId, rawBody, callId, detail };
  if (event.eventId && !(await claimEvent(event.provider, event.eventId, callId))) {
    await recordWebhookCall({ ...base, outcome: "duplicate", statusCode: 200 });
    webhookMetric(event.provider, "duplicate");
    return { status: 200, outcome: "duplicate", call_id: callId };
  }
  const refusals: string[] = [];
  const acceptedCall: AcceptedCall = {
    item: webhookCallRecord({ ...base, outcome: "accepted", statusCode: 200 }),
    written: false,
  };
  try {
    for (const handler of handlers.get(event.provider) ?? []) {
      const result = await handler({ ...event, acceptedCall });
      if (result?.refused) refusals.push(result.refused);
    }
  } catch (error) {
    log.error("webhook handler failed", {
      provider: event.provider,
      event_type: event.eventType,
      error: (error as Error).message,
    });
    if (acceptedCall.written) {
      // The change and its log committed together: what failed came after (a redelivery would
      // change nothing), so the call stays accepted.
      webhookMetric(event.provider, "accepted");
      return { status: 200, outcome: "accepted", call_id: callId };
    }
    if (event.eventId) await releaseEvent(event.provider, event.eventId);
    await recordWebhookCall({ ...base, outcome: "error", statusCode: 500, detail: (error as Error).message });
    webhookMetric(event.provider, "error");
    return { status: 500, outcome: "error", call_id: callId };
  }
  if (refusals.length > 0 && acceptedCall.written)
    log.warn("webhook partly refused after its change was written", { reason: refusals.join("; ") });
  else if (refusals.length > 0) {
    log.warn("webhook refused: not bound to what it names", {
      provider: event.provider,
      event_type: event.eventType,
      event_id: event.eventId,
      reason: refusals.join("; "),
    });
    await recordWebhookCall({
      ...base,
      outcome: "refused",
      statusCode: 200,
      detail: [detail, ...refusals].filter(Boolean).join("; "),
    });
    webhookMetric(event.provider, "refused_mismatch");
    return { status: 200, outcome: "refused", call_id: callId };
  }
  if (!acceptedCall.written) await recordWebhookCall({ ...base, outcome: "accepted", statusCode: 200 });
  webhookMetric(event.provider, "accepted");
  return { status: 200, outcome: "accepted", call_id: callId };
}

/**
 * A call that failed verification (or could not be read): recorded, answered 400. Counted as
 * `refused_signature` when its signature or secret did not verify (the alarmed case: a rotated
 * secret), else `refused_mismatch` (a body that does not fit this stage: livemode, shape).
 */
export async function rejectWebhook(input: {
  provider: WebhookProvider;
  organisationId?: string | null;
  eventType?: string | null;
  eventId?: string | null;
  reason: string;
  rawBody: string;
}): Promise<WebhookAnswer> {
  const recorded = await recordWebhookCall({
    provider: input.provider,
    organisationId: input.organisationId ?? null,
    eventType: input.eventType ?? "unknown",
    eventId: input.eventId,
    outcome: "rejected",
    statusCode: 400,
    detail: input.reason,
    rawBody: input.rawBody,
  });
  webhookMetric(
    input.provider,
    /^signature|secret/i.test(input.reason) ? "refused_signature" : "refused_mismatch",
  );
  return { status: 400, outcome: "rejected", call_id: recorded.call_id };
}
