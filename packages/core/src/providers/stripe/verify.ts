import { createHmac } from "node:crypto";
import type Stripe from "stripe";
import { type StripeWebhookEvent, WebhookSignatureError } from "./port";

/**
 * The official SDK (about 125 KB with its dependencies), loaded on first use: a Lambda cold start
 * that never touches a card or a Stripe webhook does not pay for it (the bundler gives it its own
 * chunk, as Akahu's). The package is CommonJS: imported dynamically, its export arrives as `default`.
 */
let sdk: Promise<typeof Stripe> | undefined;
export const loadStripe = (): Promise<typeof Stripe> =>
  (sdk ??= import("stripe").then(
    (module) => ((module as { default?: unknown }).default ?? module) as typeof Stripe,
  ));

/**
 * Stripe's webhook signature check, by the SDK, for both adapters (the simulated provider signs
 * its events the same way with a local secret).
 */
export async function verifyStripeWebhook(
  rawBody: string,
  header: string | null | undefined,
  secret: string,
): Promise<StripeWebhookEvent> {
  if (!header) throw new WebhookSignatureError("The Stripe-Signature header is missing.");
  const StripeSdk = await loadStripe();
  let event: Stripe.Event;
  try {
    event = StripeSdk.webhooks.constructEvent(rawBody, header, secret);
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

/**
 * Signs a payload the way Stripe does (simulators and tests): `t=<unix time>,v1=<HMAC-SHA256 of
 * "<t>.<payload>" with the endpoint secret>`, Stripe's documented scheme, which the SDK checks.
 */
export function signStripePayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${signature}`;
}
