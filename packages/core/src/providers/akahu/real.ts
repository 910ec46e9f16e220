import type { AkahuClient, Payment } from "akahu";
import { ProviderError } from "../errors";
import { WebhookSignatureError } from "../stripe/port";
import {
  type AkahuAccount,
  type AkahuApp,
  type AkahuPayment,
  type AkahuPort,
  type AkahuWebhookPayload,
  centsToDollars,
  dollarsToCents,
} from "./port";

export interface RealAkahuOptions {
  /** The platform's app: used to verify webhooks (signing keys are fetched with app credentials). */
  platformApp?: AkahuApp;
  /** For tests against a local stand-in: `http://127.0.0.1:PORT` serves both the API and the OAuth page. */
  apiBase?: string;
  oauthBase?: string;
}

/** Webhook signing keys, shared by every client in the process (24-hour cache, as Akahu advises). */
const keyCache = new Map<string, string>();
const cache = {
  get: (key: string) => keyCache.get(key) ?? null,
  set: (key: string, value: string) => void keyCache.set(key, value),
};

function location(base: string | undefined) {
  if (!base) return {};
  const url = new URL(base);
  return {
    protocol: url.protocol.replace(":", "") as "http" | "https",
    host: url.hostname,
    port: url.port ? Number(url.port) : undefined,
  };
}

function failure(error: unknown, what: string): ProviderError {
  const e = error as { status?: number; response?: { status?: number }; message?: string };
  const status = e.status ?? e.response?.status;
  if (status && status >= 400 && status < 500) {
    return new ProviderError("akahu", `Akahu did not accept ${what}.`, "declined", e.message);
  }
  return new ProviderError(
    "akahu",
    "Akahu could not be reached. Please try again.",
    "unavailable",
    e.message,
  );
}

/** Akahu's payment (dollars) as ours (cents, exactly). */
function paymentOf(payment: Payment): AkahuPayment {
  return {
    id: payment._id,
    sid: payment.sid,
    status: payment.status,
    final: payment.final,
    amount: dollarsToCents(payment.amount),
    status_code: payment.status_code ?? null,
    status_text: payment.status_text ?? null,
    meta: { ...(payment.meta?.destination ?? {}) },
    from_account: payment.from,
    created_at: payment.created_at,
  };
}

/**
 * The SDK (with axios and its dependencies, about 300 KB) is loaded on first use: most requests,
 * and every Lambda cold start, never need it, and the bundler puts it in its own chunk.
 */
type AkahuSdk = typeof import("akahu");
let sdk: Promise<AkahuSdk> | undefined;
/** The package is CommonJS: bundled and imported dynamically, its exports arrive as `default`. */
const loadSdk = () =>
  (sdk ??= import("akahu").then((module) =>
    "AkahuClient" in module ? module : (module as unknown as { default: AkahuSdk }).default,
  ));

/** The real bank-feed provider on the official `akahu` SDK. */
export function realAkahu(options: RealAkahuOptions = {}): AkahuPort {
  const api = location(options.apiBase);
  const oauth = location(options.oauthBase);
  const client = async (app: AkahuApp) => {
    const { AkahuClient } = await loadSdk();
    return new AkahuClient({ appToken: app.appToken, appSecret: app.appSecret, timeout: 20_000, ...api });
  };
  let webhookClient: AkahuClient | undefined;

  return {
    mode: "real",
    async authorizationUrl(app, { redirectUri, state, email }) {
      return (await client(app)).auth.buildAuthorizationUrl({
        redirect_uri: redirectUri,
        state,
        scope: "ENDURING_CONSENT",
        ...(email ? { email } : {}),
        ...oauth,
      });
    },
    async exchange(app, { code, redirectUri }) {
      try {
        const token = await (await client(app)).auth.exchange(code, redirectUri);
        return { accessToken: token.access_token };
      } catch (error) {
        throw failure(error, "the bank connection");
      }
    },
    async listAccounts(app, userToken): Promise<AkahuAccount[]> {
      try {
        const accounts = await (await client(app)).accounts.list(userToken);
        return accounts.map((account) => ({
          id: account._id,
          name: account.name,
          formatted_account: account.formatted_account ?? null,
          type: account.type,
          status: account.status,
          connection: account.connection?.name ?? null,
        }));
      } catch (error) {
        throw failure(error, "the bank connection");
      }
    },
    async verifyWebhook(keyId, signature, rawBody) {
      if (!keyId || !signature)
        throw new WebhookSignatureError("The X-Akahu-Signature or X-Akahu-Signing-Key header is missing.");
      if (!options.platformApp) throw new Error("AKAHU_APP_TOKEN and AKAHU_APP_SECRET are not configured");
      webhookClient ??= await client(options.platformApp);
      try {
        return (await webhookClient.webhooks.validateWebhook(keyId, signature, rawBody, {
          cache,
        })) as unknown as AkahuWebhookPayload;
      } catch (error) {
        // AkahuWebhookValidationError (bad signature, superseded key) is an Akahu error without a response.
        const e = error as { isAkahuError?: boolean; response?: unknown; message: string };
        if (e.isAkahuError && e.response === undefined) throw new WebhookSignatureError(e.message);
        throw error;
      }
    },
    async subscribeWebhooks(app, userToken, input) {
      try {
        const id = await (await client(app)).webhooks.subscribe(userToken, {
          webhook_type: input.webhook_type,
          state: input.state,
        });
        return { webhook_id: id };
      } catch (error) {
        throw failure(error, "the webhook subscription");
      }
    },
    async createPayment(app, userToken, input): Promise<AkahuPayment> {
      try {
        // The SDK sends `Idempotency-Key` from `requestOptions.idempotencyKey` (else a random one).
        const payment = await (await client(app)).payments.create(
          userToken,
          {
            from: input.from_account,
            amount: centsToDollars(input.amount),
            to: { name: input.to.name, account_number: input.to.account_number },
            meta: {
              // The member's statement (Akahu reserves the payer's particulars).
              source: { code: input.reference.code, reference: input.reference.reference },
              destination: { ...input.reference },
            },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return paymentOf(payment);
      } catch (error) {
        throw failure(error, "the payment");
      }
    },
    async getPayment(app, userToken, id): Promise<AkahuPayment> {
      try {
        return paymentOf(await (await client(app)).payments.get(userToken, id));
      } catch (error) {
        throw failure(error, "the payment");
      }
    },
    async listPayments(app, userToken, range): Promise<AkahuPayment[]> {
      try {
        const payments = await (await client(app)).payments.list(userToken, {
          start: range.start,
          end: range.end,
        });
        return payments.map(paymentOf);
      } catch (error) {
        throw failure(error, "the payment");
      }
    },
  };
}
