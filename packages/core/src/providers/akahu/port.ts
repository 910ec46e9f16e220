/**
 * Akahu, the bank-feed (open banking) provider. One port for everything the product does with
 * Akahu: a member's enduring consent (authorisation URL, code exchange), their accounts, and
 * webhook verification now; payments from the member's account are added here by the billing
 * work. Each gym may have its own Akahu app (token and secret); otherwise the platform's app is used.
 */
export interface AkahuApp {
  appToken: string;
  appSecret: string;
}

export interface AkahuAccount {
  id: string;
  name: string;
  /** `BB-bbbb-AAAAAAA-SS(S)` as Akahu formats it, when the account has one. */
  formatted_account: string | null;
  type: string;
  status: string;
  connection: string | null;
}

export interface AkahuWebhookPayload {
  webhook_type: string;
  webhook_code: string;
  /** What we passed when subscribing: the organisation id. */
  state: string | null;
  [key: string]: unknown;
}

export interface AkahuPort {
  readonly mode: "real" | "simulated";
  authorizationUrl(
    app: AkahuApp,
    input: { redirectUri: string; state: string; email?: string | null },
  ): Promise<string>;
  /** Exchanges the code for the member's user access token. */
  exchange(app: AkahuApp, input: { code: string; redirectUri: string }): Promise<{ accessToken: string }>;
  listAccounts(app: AkahuApp, userToken: string): Promise<AkahuAccount[]>;
  /**
   * Verifies `X-Akahu-Signature` (RSA-SHA256, base64) over the raw body with the signing key
   * `X-Akahu-Signing-Key` names, fetched from Akahu and cached (a superseded key is refused).
   * Throws WebhookSignatureError.
   */
  verifyWebhook(
    keyId: string | null | undefined,
    signature: string | null | undefined,
    rawBody: string,
  ): Promise<AkahuWebhookPayload>;
}
