import { setWebhookDeliverer } from "@gym/core/providers/webhook-delivery";
import { app } from "../api/app";

/**
 * Where the simulated providers' webhooks go locally (and in API tests): straight into this
 * process's API app, signed and raw like the real providers' POSTs, through the same receivers
 * (signature check, webhook log, duplicate detection, handlers). A non-2xx answer throws, so the
 * simulated provider retries as the real ones do.
 */
export function deliverSimulatedWebhooksInProcess() {
  setWebhookDeliverer(async (provider, rawBody, headers) => {
    const response = await app.request(`/api/webhooks/${provider}`, {
      method: "POST",
      body: rawBody,
      headers,
    });
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`webhook ${provider} answered ${response.status}`);
    }
  });
}
