/**
 * The one start-up point of a process. Every Lambda entry (with `productionProviders()`), the
 * local runtime and the test set-ups (with the simulated providers of `simulators/`) call
 * `createCore` before serving: it installs the provider adapters the process uses and wires the
 * reactions between layers. Nothing is wired by importing a module for its side effect, so a
 * forgotten import cannot silently drop a reaction; without a call the providers are the real
 * ones (configuration fails closed).
 */
import { registerVisitWebhooks } from "./access/visits";
import { registerEmailBrand } from "./gym/email-brand";
import { registerMemberReactions } from "./member/hooks";
import { registerChargeConsumer } from "./payment/charge";
import { registerConsentReactions } from "./payment/consent";
import { registerPaymentWebhooks } from "./payment/webhooks";
import { type AkahuPort, installAkahu, productionAkahu } from "./providers/akahu";
import { type BranchPort, installBranch, productionBranch } from "./providers/branch";
import { installKisi, type KisiPort, productionKisi } from "./providers/kisi";
import { installStripe, productionStripe, type StripePort } from "./providers/stripe";
import { registerReceiptReactions } from "./receipt/service";
import { registerRegistrationDefaults } from "./registration/service";

/** How a process makes each provider's adapter (on first use, after the Lambda has read its secrets). */
export interface CoreProviders {
  stripe: () => StripePort;
  akahu: () => AkahuPort;
  kisi: () => KisiPort;
  branch: () => BranchPort;
}

/** The real adapters, configured from the stage's environment: what every Lambda runs. */
export function productionProviders(): CoreProviders {
  return { stripe: productionStripe, akahu: productionAkahu, kisi: productionKisi, branch: productionBranch };
}

/**
 * The reactions between layers, each registered by the layer that reacts (a higher layer
 * subscribing to a lower one's event), so no lower layer imports a higher one.
 */
const reactions: (() => void)[] = [
  // Provider webhooks settle payments (payment) and record door visits (access).
  registerPaymentWebhooks,
  registerVisitWebhooks,
  // The charge queue's consumer (payment/queue.ts does not import charging).
  registerChargeConsumer,
  // A switch of default payment type retries an owed balance (payment-type → payment).
  registerConsentReactions,
  // `POST /api/subscriptions` reads what the member chose at registration (subscription → registration).
  registerRegistrationDefaults,
  // Emails carry the gym's name, logo and reply-to (email → gym).
  registerEmailBrand,
  // A payment paid at the desk gets its receipt (subscription → receipt).
  registerReceiptReactions,
  // A subscription created or changed, a payment's outcome: the members back-office's latest
  // subscription, door access, activity and (paid) the receipt in the settlement's transaction;
  // a role written re-indexes the member search (subscription, payment, user → member).
  registerMemberReactions,
];

let wired = false;

/** Installs the process's providers and wires the reactions (once; a later call only swaps providers). */
export function createCore({ providers }: { providers: CoreProviders }): void {
  installStripe(providers.stripe);
  installAkahu(providers.akahu);
  installKisi(providers.kisi);
  installBranch(providers.branch);
  if (wired) return;
  wired = true;
  for (const register of reactions) register();
}
