import type Stripe from "stripe";
import { ProviderError } from "../errors";
import type {
  StripeCharge,
  StripeChargeStatus,
  StripeConnectedAccount,
  StripePayout,
  StripePayoutCharge,
  StripePayoutSummary,
  StripePort,
  StripeSetupIntent,
  StripeSetupIntentState,
} from "./port";
import { loadStripe, verifyStripeWebhook } from "./verify";

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

/**
 * Stripe's errors as ours: the request itself refused (4xx: invalid request, idempotency key reused
 * with other parameters, no such object, permission) is `declined`; no answer (connection error,
 * timeout, 5xx, rate limited) is `unavailable`, so the caller keeps its payment pending and polls.
 */
function failure(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = error as { type?: string; statusCode?: number; message?: string };
  const unreachable =
    e.type === "StripeConnectionError" ||
    e.type === "StripeAPIError" ||
    e.type === "StripeRateLimitError" ||
    !e.statusCode ||
    e.statusCode >= 500 ||
    e.statusCode === 429;
  return unreachable
    ? new ProviderError("stripe", "Stripe could not be reached. Please try again.", "unavailable", e.message)
    : new ProviderError("stripe", "Stripe did not accept the request.", "declined", e.message);
}

function setupStatus(status: Stripe.SetupIntent.Status): StripeSetupIntentState["status"] {
  if (status === "succeeded" || status === "canceled" || status === "requires_payment_method") return status;
  // requires_confirmation, requires_action, processing: started, not finished.
  return "processing";
}

const CHARGE_STATUSES: StripeChargeStatus[] = [
  "succeeded",
  "processing",
  "requires_payment_method",
  "requires_action",
  "canceled",
];

function chargeOf(intent: Stripe.PaymentIntent): StripeCharge {
  const status = CHARGE_STATUSES.includes(intent.status as StripeChargeStatus)
    ? (intent.status as StripeChargeStatus)
    : "processing"; // requires_confirmation / requires_capture: not settled
  const error = intent.last_payment_error;
  const failed = status === "requires_payment_method" || status === "canceled";
  return {
    id: intent.id,
    status,
    amount: intent.amount,
    decline_code: failed ? (error?.decline_code ?? null) : null,
    failure_message: failed ? (error?.message ?? null) : null,
    failure_code: failed ? (error?.code ?? null) : null,
    metadata: { ...(intent.metadata ?? {}) },
  };
}

/** The real card provider on the official SDK. */
export function realStripe(options: RealStripeOptions): StripePort {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  // The SDK loads on the first call (verify.ts): one client per adapter, made then.
  let made: Promise<Stripe> | undefined;
  const client = () =>
    (made ??= loadStripe().then(
      (StripeSdk) =>
        new StripeSdk(options.secretKey, {
          maxNetworkRetries: 1,
          timeout: 20_000,
          ...(base
            ? {
                host: base.hostname,
                port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
                protocol: base.protocol === "https:" ? "https" : "http",
              }
            : {}),
        }),
    ));
  const connectHost = base ? { host: base.hostname } : undefined;

  return {
    mode: "real",
    async connectUrl({ state, redirectUri, email }) {
      return (await client()).oauth.authorizeUrl({
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
        const token = await (await client()).oauth.token(
          { grant_type: "authorization_code", code },
          connectHost,
        );
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
    async verifyWebhook(rawBody, header) {
      return verifyStripeWebhook(rawBody, header, options.webhookSecret);
    },
    async createSetupIntent(account, input): Promise<StripeSetupIntent> {
      try {
        const customer =
          input.customer_id ??
          (
            await (
              await client()
            ).customers.create(
              { email: input.email, name: input.name },
              { stripeAccount: account, idempotencyKey: `${input.idempotencyKey}:customer` },
            )
          ).id;
        const intent = await (await client()).setupIntents.create(
          { customer, usage: "off_session", payment_method_types: ["card"] },
          { stripeAccount: account, idempotencyKey: `${input.idempotencyKey}:setup` },
        );
        if (!intent.client_secret) throw new Error("Stripe answered a SetupIntent without client_secret");
        return { setup_intent_id: intent.id, client_secret: intent.client_secret, customer_id: customer };
      } catch (error) {
        throw failure(error);
      }
    },
    async retrieveSetupIntent(account, id): Promise<StripeSetupIntentState> {
      let intent: Stripe.SetupIntent;
      try {
        intent = await (await client()).setupIntents.retrieve(
          id,
          { expand: ["payment_method"] },
          { stripeAccount: account },
        );
      } catch (error) {
        throw failure(error);
      }
      const method = typeof intent.payment_method === "object" ? intent.payment_method : null;
      const card = method?.card;
      return {
        status: setupStatus(intent.status),
        customer_id: typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? ""),
        payment_method_id:
          typeof intent.payment_method === "string" ? intent.payment_method : (method?.id ?? null),
        card: card
          ? {
              brand: card.brand,
              exp_month: card.exp_month,
              exp_year: card.exp_year,
              last4: card.last4,
              country: card.country ?? null,
              fingerprint: card.fingerprint ?? null,
            }
          : null,
      };
    },
    async chargeOffSession(account, input): Promise<StripeCharge> {
      try {
        const intent = await (await client()).paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency,
            customer: input.customer_id,
            payment_method: input.payment_method_id,
            payment_method_types: ["card"],
            off_session: true,
            confirm: true,
            description: input.description,
            metadata: input.metadata,
          },
          { stripeAccount: account, idempotencyKey: input.idempotencyKey },
        );
        return chargeOf(intent);
      } catch (error) {
        // A decline is an answer, not a failure: Stripe attaches the PaymentIntent to the card error.
        const e = error as { type?: string; payment_intent?: Stripe.PaymentIntent };
        if (e.type === "StripeCardError" && e.payment_intent) return chargeOf(e.payment_intent);
        throw failure(error);
      }
    },
    async retrievePaymentIntent(account, id): Promise<StripeCharge> {
      try {
        return chargeOf(await (await client()).paymentIntents.retrieve(id, {}, { stripeAccount: account }));
      } catch (error) {
        throw failure(error);
      }
    },
    async retrievePayout(account, id): Promise<StripePayout> {
      try {
        const stripe = await client();
        const payout = await stripe.payouts.retrieve(id, {}, { stripeAccount: account });
        const charges: StripePayoutCharge[] = [];
        for await (const tx of stripe.balanceTransactions.list(
          { payout: id, type: "charge", expand: ["data.source"], limit: 100 },
          { stripeAccount: account },
        )) {
          const source = typeof tx.source === "object" && tx.source ? (tx.source as Stripe.Charge) : null;
          const intent = source?.payment_intent;
          charges.push({
            payment_intent: typeof intent === "string" ? intent : (intent?.id ?? null),
            metadata: { ...(source?.metadata ?? {}) },
            amount: tx.amount,
            fee: tx.fee,
            net: tx.net,
          });
        }
        return {
          id: payout.id,
          status: payout.status as StripePayout["status"],
          amount: payout.amount,
          arrival_date: payout.arrival_date,
          charges,
        };
      } catch (error) {
        throw failure(error);
      }
    },
    async listPayouts(account, arrivedSince): Promise<StripePayoutSummary[]> {
      try {
        const stripe = await client();
        const found: StripePayoutSummary[] = [];
        for await (const payout of stripe.payouts.list(
          { arrival_date: { gte: arrivedSince }, limit: 100 },
          { stripeAccount: account },
        ))
          found.push({
            id: payout.id,
            status: payout.status as StripePayout["status"],
            amount: payout.amount,
            arrival_date: payout.arrival_date,
          });
        return found;
      } catch (error) {
        throw failure(error);
      }
    },
  };
}
