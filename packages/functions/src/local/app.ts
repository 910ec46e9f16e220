import { config } from "@gym/core/config";
import { createCore } from "@gym/core/core";
import { localProviders } from "@gym/core/simulators/index";
import { createApp as createApiApp } from "../api/app";
import { devRouter } from "../api/routers/dev";
import { simulatorRouter } from "./simulators/router";
import { registerLocalWebhookDelivery } from "./webhook-delivery";

/**
 * The API app of a local process (`npm start`, the tests): the start-up point with the simulated
 * providers, then the same app as on Lambda plus the dev routes, the simulated providers' pages
 * and their webhooks delivered back into the app in-process (AWS gets real ones over HTTPS).
 */
createCore({ providers: localProviders() });

export function createApp() {
  const app = createApiApp({
    local: (part) => {
      part.route("/", devRouter);
      part.route("/", simulatorRouter);
    },
  });
  // Delivered through the whole app (its /api/webhooks part), not the part holding the dev routes.
  if (config.isLocal) registerLocalWebhookDelivery(app);
  return app;
}

export const app = createApp();
