import { createHash } from "node:crypto";
import { config } from "../config";
import { ProviderError } from "../providers/errors";
import type { StripePort } from "../providers/stripe/port";
import { verifyStripeWebhook } from "../providers/stripe/verify";
import { issueSimulatedCode, redeemSimulatedCode } from "./signed-codes";
import {
  chargeSimulated,
  confirmSimulatedSetupIntent,
  createSimulatedSetupIntent,
  retrieveSimulatedPaymentIntent,
  retrieveSimulatedSetupIntent,
} from "./stripe-payments";
import { listSimulatedPayouts, retrieveSimulatedPayout } from "./stripe-payouts";

/** The local signing secret of the simulated provider's webhooks. */
export const SIMULATED_STRIPE_WEBHOOK_SECRET = "whsec_simulated_local_stripe";
const CODE_PREFIX = "ac_sim_";

/**
 * The simulated card provider. Saved cards and off-session charges: see simulated-payments.ts and
 * simulated-cards.ts (Stripe's test numbers). Its consent page (`GET /api/dev/stripe/authorize`, served only
 * locally) issues a one-time code; the exchange accepts each code once, within ten minutes, and
 * answers a connected account id derived from the state (so reconnecting a gym gives the same
 * account). Unknown or reused codes are declined with Stripe's own wording.
 */
/**
 * `now`: the world's time, as Stripe would see it (a charge on a card past its expiry month is
 * declined `expired_card`, a card already expired cannot be saved). The local runtime and the tests
 * give the business clock, so moving it lets a card run out; alone it is the real time.
 */
export function simulatedStripe(
  options: { baseUrl?: string; webhookSecret?: string; now?: () => Promise<Date> } = {},
): StripePort {
  const now = options.now ?? (async () => new Date());
  const webhookSecret = options.webhookSecret ?? SIMULATED_STRIPE_WEBHOOK_SECRET;
  return {
    mode: "simulated",
    cardFormUrl: (input) => simulatedCardFormUrl(input),
    async connectUrl({ state, redirectUri, email }) {
      const url = new URL("/api/dev/stripe/authorize", options.baseUrl ?? config.staffUrl);
      url.searchParams.set("client_id", "ca_simulated");
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", "read_write");
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("state", state);
      if (email) url.searchParams.set("stripe_user[email]", email);
      return url.toString();
    },
    async exchangeConnectCode(code) {
      await Promise.resolve();
      const payload = redeemSimulatedCode(CODE_PREFIX, code);
      if (!payload) {
        throw new ProviderError(
          "stripe",
          "Stripe did not accept the connection. Please try connecting again.",
          "declined",
          `Authorization code does not exist: ${code.slice(0, 12)}…`,
        );
      }
      const account = `acct_sim${createHash("sha256")
        .update(payload.seed ?? code)
        .digest("hex")
        .slice(0, 12)}`;
      return { stripe_user_id: account, livemode: false, scope: "read_write" };
    },
    async verifyWebhook(rawBody, header) {
      return verifyStripeWebhook(rawBody, header, webhookSecret);
    },
    async createSetupIntent(account, input) {
      await Promise.resolve();
      return createSimulatedSetupIntent(account, input);
    },
    async confirmSimulatedCard(account, setupIntentId, card) {
      return confirmSimulatedSetupIntent(account, setupIntentId, card, await now());
    },
    async retrieveSetupIntent(account, id) {
      await Promise.resolve();
      return retrieveSimulatedSetupIntent(account, id);
    },
    async chargeOffSession(account, input) {
      return chargeSimulated(account, input, webhookSecret, await now());
    },
    async retrievePaymentIntent(account, id) {
      await Promise.resolve();
      return retrieveSimulatedPaymentIntent(account, id);
    },
    async retrievePayout(account, id) {
      await Promise.resolve();
      return retrieveSimulatedPayout(account, id);
    },
    async listPayouts(account, arrivedSince) {
      await Promise.resolve();
      return listSimulatedPayouts(account, arrivedSince);
    },
  };
}

/** What the simulated consent page does when the admin clicks "Connect test account". */
export function simulatedStripeCode(seed: string): string {
  return issueSimulatedCode(CODE_PREFIX, {
    seed: createHash("sha256").update(seed).digest("hex").slice(0, 24),
  });
}

/**
 * Where the join site sends a member to save a card while Stripe is simulated: the simulator's
 * card form (in place of Stripe.js Elements), which returns to `returnUrl` as Stripe.js does.
 */
export function simulatedCardFormUrl(input: {
  account: string;
  setupIntentId: string;
  clientSecret: string;
  returnUrl: string;
  baseUrl?: string;
}): string {
  const url = new URL("/api/dev/stripe/setup", input.baseUrl ?? config.joinUrl);
  url.searchParams.set("account", input.account);
  url.searchParams.set("setup_intent", input.setupIntentId);
  url.searchParams.set("client_secret", input.clientSecret);
  url.searchParams.set("return_url", input.returnUrl);
  return url.toString();
}
