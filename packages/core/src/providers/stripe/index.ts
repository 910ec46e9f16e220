import { config } from "../../config";
import { providerMode } from "../errors";
import type { StripePort } from "./port";
import { realStripe } from "./real";
import { simulatedStripe } from "./simulated";

export type {
  StripeCharge,
  StripeChargeInput,
  StripeChargeStatus,
  StripeConnectedAccount,
  StripePort,
  StripeSavedCard,
  StripeSetupIntent,
  StripeSetupIntentInput,
  StripeSetupIntentState,
  StripeWebhookEvent,
} from "./port";
export { isHardCardDecline, WebhookSignatureError } from "./port";

let adapter: StripePort | undefined;

/** The card provider for this process: simulated locally unless STRIPE_MODE=real. */
export function stripeProvider(): StripePort {
  if (adapter) return adapter;
  if (providerMode("STRIPE", config.isLocal) === "simulated") {
    adapter = simulatedStripe({ webhookSecret: config.optional("STRIPE_WEBHOOK_SECRET") });
  } else {
    const need = (name: string) => {
      const value = config.optional(name);
      if (!value) throw new Error(`${name} is not configured`);
      return value;
    };
    adapter = realStripe({
      secretKey: need("STRIPE_SECRET_KEY"),
      clientId: need("STRIPE_CLIENT_ID"),
      webhookSecret: need("STRIPE_WEBHOOK_SECRET"),
      apiBase: config.optional("STRIPE_API_BASE"),
    });
  }
  return adapter;
}

/** Tests swap the adapter (e.g. a real one pointed at a local stand-in). */
export function setStripeProvider(next: StripePort | undefined) {
  adapter = next;
}
