import { createHash, createSign, createVerify, generateKeyPairSync } from "node:crypto";
import { config } from "../config";
import type { AkahuPort, AkahuWebhookPayload } from "../providers/akahu/port";
import { ProviderError } from "../providers/errors";
import { WebhookSignatureError } from "../providers/stripe/port";
import {
  createSimulatedPayment,
  getSimulatedPayment,
  listSimulatedPayments,
  SIMULATED_TOKEN_PREFIX,
  simulatedAccountsFor,
  subscribeSimulated,
} from "./akahu-payments";
import { issueSimulatedCode, redeemSimulatedCode } from "./signed-codes";

const CODE_PREFIX = "id_sim_";
const TOKEN_PREFIX = SIMULATED_TOKEN_PREFIX;

/** The simulated provider's webhook signing key (one per process, like Akahu's rotating key). */
export const SIMULATED_AKAHU_KEY_ID = "1";
let keys: { publicKey: string; privateKey: string } | undefined;
function signingKeys() {
  keys ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return keys;
}

/** Signs a body the way Akahu does (RSA-SHA256, base64): for the simulator and tests. */
export function signSimulatedAkahuWebhook(rawBody: string): { keyId: string; signature: string } {
  const sign = createSign("sha256");
  sign.update(rawBody);
  return { keyId: SIMULATED_AKAHU_KEY_ID, signature: sign.sign(signingKeys().privateKey, "base64") };
}

/**
 * The simulated bank feed. Its consent page (`GET /api/dev/akahu/authorize`, local only) issues
 * a one-time code; exchange accepts it once and answers a user token; each member has the accounts
 * of simulated-payments.ts (ones that pay, fail for funds, are closed, or settle slowly). Webhooks are verified with RSA-SHA256 against this process's key, like the real one.
 */
export function simulatedAkahu(options: { baseUrl?: string } = {}): AkahuPort {
  return {
    mode: "simulated",
    async authorizationUrl(app, { redirectUri, state, email }) {
      const url = new URL("/api/dev/akahu/authorize", options.baseUrl ?? config.joinUrl);
      url.searchParams.set("client_id", app.appToken);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", "ENDURING_CONSENT");
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("state", state);
      if (email) url.searchParams.set("email", email);
      return url.toString();
    },
    async exchange(_app, { code }) {
      await Promise.resolve();
      const payload = redeemSimulatedCode(CODE_PREFIX, code);
      if (!payload)
        throw new ProviderError(
          "akahu",
          "Akahu did not accept the bank connection.",
          "declined",
          "invalid_grant",
        );
      return {
        accessToken: `${TOKEN_PREFIX}${createHash("sha256")
          .update(payload.seed ?? code)
          .digest("hex")
          .slice(0, 24)}`,
      };
    },
    async listAccounts(_app, userToken) {
      await Promise.resolve();
      if (!userToken.startsWith(TOKEN_PREFIX))
        throw new ProviderError(
          "akahu",
          "Akahu did not accept the bank connection.",
          "declined",
          "Unauthorized",
        );
      return simulatedAccountsFor(userToken);
    },
    async verifyWebhook(keyId, signature, rawBody) {
      await Promise.resolve();
      if (!keyId || !signature)
        throw new WebhookSignatureError("The X-Akahu-Signature or X-Akahu-Signing-Key header is missing.");
      if (keyId !== SIMULATED_AKAHU_KEY_ID)
        throw new WebhookSignatureError(`Webhook signing key (id: ${keyId}) is not known.`);
      const verify = createVerify("sha256");
      verify.update(rawBody);
      if (!verify.verify(signingKeys().publicKey, signature, "base64"))
        throw new WebhookSignatureError("Webhook signature verificaton failed.");
      return JSON.parse(rawBody) as AkahuWebhookPayload;
    },
    async subscribeWebhooks(_app, userToken, input) {
      await Promise.resolve();
      return subscribeSimulated(userToken, input);
    },
    async createPayment(app, userToken, input) {
      await Promise.resolve();
      return createSimulatedPayment(app.appToken, userToken, input, signSimulatedAkahuWebhook);
    },
    async getPayment(_app, userToken, id) {
      await Promise.resolve();
      return getSimulatedPayment(userToken, id);
    },
    async listPayments(_app, userToken, range) {
      await Promise.resolve();
      return listSimulatedPayments(userToken, range);
    },
  };
}

export function simulatedAkahuCode(seed: string): string {
  return issueSimulatedCode(CODE_PREFIX, {
    seed: createHash("sha256").update(seed).digest("hex").slice(0, 24),
  });
}
