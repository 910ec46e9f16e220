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
  return createApiApp({
    local: (app) => {
      app.route("/", devRouter);
      app.route("/", simulatorRouter);
      registerLocalWebhookDelivery(app);
    },
  });
}

export const app = createApp();
