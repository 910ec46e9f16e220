import { config } from "../../config";
import { providerMode } from "../errors";
import type { AkahuApp, AkahuPort } from "./port";
import { realAkahu } from "./real";
import { simulatedAkahu } from "./simulated";

export type {
  AkahuAccount,
  AkahuApp,
  AkahuPayment,
  AkahuPaymentInput,
  AkahuPaymentStatus,
  AkahuPaymentWebhook,
  AkahuPort,
  AkahuWebhookPayload,
} from "./port";
export { centsToDollars, dollarsToCents, isHardBankFailure } from "./port";

let adapter: AkahuPort | undefined;

/** The platform's own Akahu app (AKAHU_APP_TOKEN / AKAHU_APP_SECRET), when configured. */
export function platformAkahuApp(): AkahuApp | undefined {
  const appToken = config.optional("AKAHU_APP_TOKEN");
  const appSecret = config.optional("AKAHU_APP_SECRET");
  return appToken && appSecret ? { appToken, appSecret } : undefined;
}

/** The bank-feed provider for this process: simulated locally unless AKAHU_MODE=real. */
export function akahuProvider(): AkahuPort {
  if (adapter) return adapter;
  adapter =
    providerMode("AKAHU", config.isLocal) === "simulated"
      ? simulatedAkahu()
      : realAkahu({
          platformApp: platformAkahuApp(),
          apiBase: config.optional("AKAHU_API_BASE"),
          oauthBase: config.optional("AKAHU_OAUTH_BASE"),
        });
  return adapter;
}

export function setAkahuProvider(next: AkahuPort | undefined) {
  adapter = next;
}
