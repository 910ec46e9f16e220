/**
 * How the simulated providers send their webhooks. The real providers POST to our public
 * `/api/webhooks/{stripe,akahu}` over the internet; the simulated ones hand the signed raw body and
 * headers to a deliverer that the runtime registers: locally (and in API tests) one that calls the
 * Hono app in-process, `app.request("/api/webhooks/stripe", { method: "POST", body, headers })`
 * (see `packages/functions/src/local/webhook-delivery.ts`). Core never imports the app.
 *
 * A deliverer should throw when the app does not answer 2xx: the simulated provider then retries,
 * as the real ones do (a few times, then polling is what settles the payment).
 */
export type WebhookDeliverer = (
  provider: "stripe" | "akahu",
  rawBody: string,
  headers: Record<string, string>,
) => Promise<void>;

let deliverer: WebhookDeliverer | undefined;

/** Registers (or, with `undefined`, removes) where simulated webhooks go. The last call wins. */
export function setWebhookDeliverer(next: WebhookDeliverer | undefined): void {
  deliverer = next;
}

/** Whether anything will receive simulated webhooks (without one they are dropped, as if unreachable). */
export function hasWebhookDeliverer(): boolean {
  return deliverer !== undefined;
}

/** Delivers one webhook; answers false when no deliverer is registered. Throws what the deliverer throws. */
export async function deliverWebhook(
  provider: "stripe" | "akahu",
  rawBody: string,
  headers: Record<string, string>,
): Promise<boolean> {
  if (!deliverer) return false;
  await deliverer(provider, rawBody, headers);
  return true;
}
