import Stripe from "stripe";
import { type StripeWebhookEvent, WebhookSignatureError } from "./port";

/**
 * Stripe's webhook signature check, by the SDK, for both adapters (the simulated provider signs
 * its events the same way with a local secret).
 */
export function verifyStripeWebhook(
  rawBody: string,
  header: string | null | undefined,
  secret: string,
): StripeWebhookEvent {
  if (!header) throw new WebhookSignatureError("The Stripe-Signature header is missing.");
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, header, secret);
  } catch (error) {
    throw new WebhookSignatureError((error as Error).message);
  }
  return {
    id: event.id,
    type: event.type,
    account: event.account ?? null,
    livemode: event.livemode,
    created: event.created,
    data: { object: event.data.object as unknown as Record<string, unknown> },
  };
}

/** Signs a payload the way Stripe does (simulators and tests). */
export function signStripePayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
