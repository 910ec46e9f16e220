import { createHash, createSign, createVerify, generateKeyPairSync } from "node:crypto";
import { config } from "../../config";
import { ProviderError } from "../errors";
import { issueSimulatedCode, redeemSimulatedCode } from "../signed-codes";
import { WebhookSignatureError } from "../stripe/port";
import type { AkahuAccount, AkahuPort, AkahuWebhookPayload } from "./port";

const CODE_PREFIX = "id_sim_";
const TOKEN_PREFIX = "user_token_sim_";

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

/** The same two accounts for every simulated member, as a bank would show them. */
function accountsFor(token: string): AkahuAccount[] {
  const seed = createHash("sha256").update(token).digest("hex");
  const digits = (from: number) =>
    String(Number.parseInt(seed.slice(from, from + 8), 16) % 10_000_000).padStart(7, "0");
  return [
    {
      id: `acc_sim${seed.slice(0, 10)}`,
      name: "Everyday",
      formatted_account: `12-3140-${digits(0)}-00`,
      type: "CHECKING",
      status: "ACTIVE",
      connection: "Simulated Bank",
    },
    {
      id: `acc_sim${seed.slice(10, 20)}`,
      name: "Savings",
      formatted_account: `12-3140-${digits(8)}-01`,
      type: "SAVINGS",
      status: "ACTIVE",
      connection: "Simulated Bank",
    },
  ];
}

/**
 * The simulated bank feed. Its consent page (`GET /api/dev/akahu/authorize`, local only) issues
 * a one-time code; exchange accepts it once and answers a user token; accounts are two per
 * member. Webhooks are verified with RSA-SHA256 against this process's key, like the real one.
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
      return accountsFor(userToken);
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
    async subscribeWebhooks() {
      throw new Error("subscribeWebhooks: not implemented yet");
    },
    async createPayment() {
      throw new Error("createPayment: not implemented yet");
    },
    async getPayment() {
      throw new Error("getPayment: not implemented yet");
    },
    async listPayments() {
      throw new Error("listPayments: not implemented yet");
    },
  };
}

export function simulatedAkahuCode(seed: string): string {
  return issueSimulatedCode(CODE_PREFIX, {
    seed: createHash("sha256").update(seed).digest("hex").slice(0, 24),
  });
}
