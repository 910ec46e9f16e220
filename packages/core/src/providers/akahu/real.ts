import { AkahuClient } from "akahu";
import { ProviderError } from "../errors";
import { WebhookSignatureError } from "../stripe/port";
import type { AkahuAccount, AkahuApp, AkahuPort, AkahuWebhookPayload } from "./port";

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

/** The real bank-feed provider on the official `akahu` SDK. */
export function realAkahu(options: RealAkahuOptions = {}): AkahuPort {
  const api = location(options.apiBase);
  const oauth = location(options.oauthBase);
  const client = (app: AkahuApp) =>
    new AkahuClient({ appToken: app.appToken, appSecret: app.appSecret, timeout: 20_000, ...api });
  let webhookClient: AkahuClient | undefined;

  return {
    mode: "real",
    authorizationUrl(app, { redirectUri, state, email }) {
      return client(app).auth.buildAuthorizationUrl({
        redirect_uri: redirectUri,
        state,
        scope: "ENDURING_CONSENT",
        ...(email ? { email } : {}),
        ...oauth,
      });
    },
    async exchange(app, { code, redirectUri }) {
      try {
        const token = await client(app).auth.exchange(code, redirectUri);
        return { accessToken: token.access_token };
      } catch (error) {
        throw failure(error, "the bank connection");
      }
    },
    async listAccounts(app, userToken): Promise<AkahuAccount[]> {
      try {
        const accounts = await client(app).accounts.list(userToken);
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
      webhookClient ??= client(options.platformApp);
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
  };
}
