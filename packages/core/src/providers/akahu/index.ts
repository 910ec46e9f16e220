import { config } from "../../config";
import type { AkahuApp, AkahuPort } from "./port";
import { realAkahu } from "./real";

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

/** The real adapter from the stage's configuration: what every Lambda runs (and the default). */
export function productionAkahu(): AkahuPort {
  return realAkahu({
    platformApp: platformAkahuApp(),
    apiBase: config.optional("AKAHU_API_BASE"),
    oauthBase: config.optional("AKAHU_OAUTH_BASE"),
  });
}

let make: () => AkahuPort = productionAkahu;

/**
 * The bank-feed provider for this process: the one its start-up point chose (`createCore`,
 * core.ts), made on first use; without one, the real adapter (fails closed).
 */
export function akahuProvider(): AkahuPort {
  adapter ??= make();
  return adapter;
}

/** The start-up point's choice (core.ts `createCore`): how this process makes its adapter. */
export function installAkahu(next: () => AkahuPort) {
  make = next;
  adapter = undefined;
}

export function setAkahuProvider(next: AkahuPort | undefined) {
  adapter = next;
}
