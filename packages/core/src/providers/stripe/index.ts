import { config } from "../../config";
import type { StripePort } from "./port";
import { realStripe } from "./real";

export type {
  StripeCharge,
  StripeChargeInput,
  StripeChargeStatus,
  StripeConnectedAccount,
  StripePayout,
  StripePayoutCharge,
  StripePayoutSummary,
  StripePort,
  StripeSavedCard,
  StripeSetupIntent,
  StripeSetupIntentInput,
  StripeSetupIntentState,
  StripeWebhookEvent,
} from "./port";
export { isHardCardDecline, WebhookSignatureError } from "./port";

let adapter: StripePort | undefined;
let make: () => StripePort = productionStripe;

/** The real adapter from the stage's configuration: what every Lambda runs (and the default). */
export function productionStripe(): StripePort {
  const need = (name: string) => {
    const value = config.optional(name);
    if (!value) throw new Error(`${name} is not configured`);
    return value;
  };
  return realStripe({
    secretKey: need("STRIPE_SECRET_KEY"),
    clientId: need("STRIPE_CLIENT_ID"),
    webhookSecret: need("STRIPE_WEBHOOK_SECRET"),
    apiBase: config.optional("STRIPE_API_BASE"),
  });
}

/**
 * The card provider for this process: the one its start-up point chose (`createCore`, core.ts),
 * made on first use; without one, the real adapter (fails closed).
 */
export function stripeProvider(): StripePort {
  adapter ??= make();
  return adapter;
}

/** The start-up point's choice (core.ts `createCore`): how this process makes its adapter. */
export function installStripe(next: () => StripePort) {
  make = next;
  adapter = undefined;
}

/** Tests swap the adapter (e.g. a real one pointed at a local stand-in); `undefined` goes back to the installed one. */
export function setStripeProvider(next: StripePort | undefined) {
  adapter = next;
}
