import { setWebhookDeliverer } from "@gym/core/simulators/webhook-delivery";

/** The one thing the deliverer needs of the API app: Hono's in-process `request`. */
interface InProcessApp {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

/**
 * Locally (npm start, API tests) the simulated providers' webhooks go to the app in-process,
 * through the same public route, signature check and webhook log as a real provider's POST. A
 * non-2xx answer throws, so the simulated provider retries as Stripe and Akahu do.
 */
export function registerLocalWebhookDelivery(app: InProcessApp): void {
  setWebhookDeliverer(async (provider, rawBody, headers) => {
    const response = await app.request(`/api/webhooks/${provider}`, {
      method: "POST",
      body: rawBody,
      headers,
    });
    if (!response.ok) {
      throw new Error(`POST /api/webhooks/${provider} answered ${response.status}: ${await response.text()}`);
    }
  });
}
