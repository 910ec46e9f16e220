import Stripe from "stripe";
import { ProviderError } from "../errors";
import type { StripeConnectedAccount, StripePort } from "./port";
import { verifyStripeWebhook } from "./verify";

export interface RealStripeOptions {
  secretKey: string;
  clientId: string;
  webhookSecret: string;
  /**
   * Where the API lives, for tests against a local stand-in (`http://127.0.0.1:12111`). Both
   * api.stripe.com and connect.stripe.com calls go there. Unset in production.
   */
  apiBase?: string;
}

/** The real card provider on the official SDK. */
export function realStripe(options: RealStripeOptions): StripePort {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
  const connectHost = base ? { host: base.hostname } : undefined;

  return {
    mode: "real",
    connectUrl({ state, redirectUri, email }) {
      return stripe.oauth.authorizeUrl({
        client_id: options.clientId,
        response_type: "code",
        scope: "read_write",
        redirect_uri: redirectUri,
        state,
        ...(email ? { stripe_user: { email } } : {}),
      });
    },
    async exchangeConnectCode(code): Promise<StripeConnectedAccount> {
      try {
        const token = await stripe.oauth.token({ grant_type: "authorization_code", code }, connectHost);
        if (!token.stripe_user_id)
          throw new ProviderError("stripe", "Stripe did not return a connected account.");
        return {
          stripe_user_id: token.stripe_user_id,
          livemode: Boolean(token.livemode),
          scope: token.scope ?? "",
        };
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        const e = error as {
          type?: string;
          code?: string;
          message?: string;
          statusCode?: number;
          rawType?: string;
        };
        if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
          throw new ProviderError(
            "stripe",
            "Stripe did not accept the connection. Please try connecting again.",
            "declined",
            e.message,
          );
        }
        throw new ProviderError(
          "stripe",
          "Stripe could not be reached. Please try again.",
          "unavailable",
          e.message,
        );
      }
    },
    verifyWebhook(rawBody, header) {
      return verifyStripeWebhook(rawBody, header, options.webhookSecret);
    },
    async createSetupIntent() {
      throw new Error("createSetupIntent: not implemented yet");
    },
    async retrieveSetupIntent() {
      throw new Error("retrieveSetupIntent: not implemented yet");
    },
    async chargeOffSession() {
      throw new Error("chargeOffSession: not implemented yet");
    },
    async retrievePaymentIntent() {
      throw new Error("retrievePaymentIntent: not implemented yet");
    },
  };
}
