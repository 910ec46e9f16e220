/**
 * The simulated providers: DEV ONLY. The local runtime (`npm start`) and the tests install them
 * through `createCore({ providers: localProviders() })`; no Lambda entry reaches this folder (the
 * layer test in contract/boundary.test.ts and tests/infra/bundle.test.ts check it).
 */
import { businessNow } from "../clock";
import { config } from "../config";
import type { CoreProviders } from "../core";
import { productionAkahu } from "../providers/akahu";
import { productionBranch } from "../providers/branch";
import { productionKisi } from "../providers/kisi";
import { productionStripe } from "../providers/stripe";
import { simulatedAkahu } from "./akahu";
import { simulatedBranch } from "./branch";
import { simulatedKisi } from "./kisi";
import { simulatedStripe } from "./stripe";

/** Which adapter a provider uses locally: simulated, unless `<NAME>_MODE=real` asks for the real one. */
export function providerMode(name: "STRIPE" | "AKAHU" | "KISI" | "BRANCH"): "real" | "simulated" {
  return process.env[`${name}_MODE`] === "real" ? "real" : "simulated";
}

/** The providers of a local process (npm start, tests). */
export function localProviders(): CoreProviders {
  return {
    stripe: () =>
      providerMode("STRIPE") === "real"
        ? productionStripe()
        : simulatedStripe({ webhookSecret: config.optional("STRIPE_WEBHOOK_SECRET"), now: businessNow }),
    akahu: () => (providerMode("AKAHU") === "real" ? productionAkahu() : simulatedAkahu()),
    kisi: () => (providerMode("KISI") === "real" ? productionKisi() : simulatedKisi()),
    branch: () => (providerMode("BRANCH") === "real" ? productionBranch() : simulatedBranch()),
  };
}
