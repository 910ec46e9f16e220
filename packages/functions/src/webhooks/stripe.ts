import { stripeEventReads } from "@gym/core/payment/webhooks";
import { stripeProvider, WebhookSignatureError } from "@gym/core/providers/stripe/index";
import { acceptWebhook, rejectWebhook, type WebhookAnswer } from "@gym/core/webhook-log/receive";

function peek(rawBody: string): { type?: string; id?: string } {
  try {
    const parsed = JSON.parse(rawBody);
    return typeof parsed === "object" && parsed
      ? { type: String(parsed.type ?? ""), id: String(parsed.id ?? "") }
      : {};
  } catch {
    return {};
  }
}

/**
 * Stripe: the signature (`Stripe-Signature`, HMAC over the raw body) is checked by the SDK; the
 * connected account names the organisation; an event from the other mode (test vs live) is
 * recorded and ignored. Payment handling registers on acceptWebhook's handlers later.
 */
export async function receiveStripe(rawBody: string, signature: string | undefined): Promise<WebhookAnswer> {
  const provider = stripeProvider();
  let event: Awaited<ReturnType<typeof provider.verifyWebhook>>;
  try {
    event = await provider.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    const seen = peek(rawBody);
    return rejectWebhook({
      provider: "stripe",
      eventType: seen.type,
      eventId: seen.id,
      reason: `signature: ${error.message}`,
      rawBody,
    });
  }
  // The account's owner, and for a payment event what it names, in one batch read.
  const { owner, prefetched } = await stripeEventReads(event);
  const expectLive = provider.mode === "real" && process.env.STRIPE_SECRET_KEY?.startsWith("sk_live_");
  if (event.livemode !== Boolean(expectLive)) {
    return rejectWebhook({
      provider: "stripe",
      organisationId: owner?.organisation_id,
      eventType: event.type,
      eventId: event.id,
      reason: `livemode ${event.livemode} does not match this stage`,
      rawBody,
    });
  }
  return acceptWebhook(
    {
      provider: "stripe",
      organisationId: owner?.organisation_id ?? null,
      gymId: owner?.gym_id ?? null,
      eventType: event.type,
      eventId: event.id,
      payload: event,
      prefetched,
    },
    rawBody,
    event.account ? `account ${event.account}` : undefined,
  );
}
