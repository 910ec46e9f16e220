/**
 * Stripe, the card provider. One port for everything the product does with Stripe: Connect
 * onboarding of a gym's account now; saved cards and off-session payments are added here by the
 * billing work. Adapters: `real.ts` (the official `stripe` SDK) and `simulated.ts` (local runs
 * and tests; same answers, no network).
 */
export interface StripeConnectedAccount {
  /** The connected account id (`acct_…`), stored on the gym as `stripe_id`. */
  stripe_user_id: string;
  livemode: boolean;
  scope: string;
}

/** The parts of a verified Stripe event the product reads. */
export interface StripeWebhookEvent {
  id: string;
  type: string;
  /** The connected account the event is about (Connect events), if any. */
  account: string | null;
  livemode: boolean;
  created: number;
  data: { object: Record<string, unknown> };
}

export interface StripePort {
  readonly mode: "real" | "simulated";
  /** Where to send a gym admin to connect (or create) their Stripe account. */
  connectUrl(input: { state: string; redirectUri: string; email?: string | null }): string;
  /** Exchanges the code Stripe returned to the callback for the connected account. */
  exchangeConnectCode(code: string): Promise<StripeConnectedAccount>;
  /**
   * Verifies `Stripe-Signature` over the raw body (HMAC-SHA256 with the endpoint's signing
   * secret, five-minute tolerance) and parses the event. Throws {@link WebhookSignatureError}.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | null | undefined): StripeWebhookEvent;
}

export class WebhookSignatureError extends Error {
  constructor(message = "The webhook signature could not be verified.") {
    super(message);
    this.name = "WebhookSignatureError";
  }
}
