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
  /**
   * A hosted page that collects a card for a SetupIntent and returns to `returnUrl` as Stripe.js
   * does: only the simulator has one (real Stripe collects the card in Stripe.js on the join site).
   */
  cardFormUrl?(input: {
    account: string;
    setupIntentId: string;
    clientSecret: string;
    returnUrl: string;
  }): string;
  /** Where to send a gym admin to connect (or create) their Stripe account. */
  connectUrl(input: { state: string; redirectUri: string; email?: string | null }): Promise<string>;
  /** Exchanges the code Stripe returned to the callback for the connected account. */
  exchangeConnectCode(code: string): Promise<StripeConnectedAccount>;
  /**
   * Verifies `Stripe-Signature` over the raw body (HMAC-SHA256 with the endpoint's signing
   * secret, five-minute tolerance) and parses the event. Throws {@link WebhookSignatureError}.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | null | undefined): Promise<StripeWebhookEvent>;

  // Saved cards and off-session payments. Every call runs on the gym's connected account
  // (`account` = `acct_…`, sent as the SDK's `stripeAccount` request option, i.e. the
  // `Stripe-Account` header): customers, cards and payments live in the gym's own Stripe account.

  /**
   * Starts saving a card for off-session use: creates the Customer on the connected account when
   * `customer_id` is not given, then a SetupIntent (`usage: "off_session"`, card only). The browser
   * confirms it with `client_secret` (Stripe.js, or the simulated card form locally).
   */
  createSetupIntent(account: string, input: StripeSetupIntentInput): Promise<StripeSetupIntent>;
  /**
   * Simulated adapter only: what the simulated card form does when the member submits a card
   * number (Stripe's test numbers, see docs/providers.md). The real adapter has no such method.
   */
  confirmSimulatedCard?(
    account: string,
    setupIntentId: string,
    card: { number: string; exp_month?: number; exp_year?: number; client_secret?: string },
  ): Promise<StripeSetupIntentState>;
  /** The SetupIntent's state and, once it succeeded, the saved card (its PaymentMethod's card details). */
  retrieveSetupIntent(account: string, id: string): Promise<StripeSetupIntentState>;
  /**
   * Charges a saved card with the member away (PaymentIntent with `confirm: true`,
   * `off_session: true`), keyed by `idempotencyKey` (the same key answers the first result, never
   * a second charge). A decline answers a charge with status `requires_payment_method` and its
   * `decline_code`; it does not throw. Throws ProviderError `unavailable` only when Stripe could not
   * be reached or timed out: the charge may or may not exist, so keep the payment pending and poll
   * (or repeat the call with the same key).
   */
  chargeOffSession(account: string, input: StripeChargeInput): Promise<StripeCharge>;
  /** A PaymentIntent's current state: what polling reads when no webhook arrived. */
  retrievePaymentIntent(account: string, id: string): Promise<StripeCharge>;
  /**
   * A payout of the connected account and the charges inside it (`payouts.retrieve` and
   * `balanceTransactions.list({ payout, type: "charge", expand: ["data.source"] })` on the
   * account): what a `payout.paid` event is bound to (docs/accounting.md "Payouts"), never the
   * event's body. Throws ProviderError `declined` for a payout the account does not have.
   */
  retrievePayout(account: string, id: string): Promise<StripePayout>;
  /**
   * The connected account's payouts arriving on or after `arrivedSince` (Unix seconds), without
   * their charges (`payouts.list({ arrival_date: { gte } })` on the account, every page): what the
   * `payout-catch-up` job compares with the payouts recorded (docs/accounting.md "Payouts").
   */
  listPayouts(account: string, arrivedSince: number): Promise<StripePayoutSummary[]>;
}

export interface StripeSetupIntentInput {
  /** The member's Customer on this connected account, when they already have one. */
  customer_id?: string | null;
  email: string;
  name: string;
  idempotencyKey: string;
}

export interface StripeSetupIntent {
  setup_intent_id: string;
  client_secret: string;
  customer_id: string;
}

export interface StripeSavedCard {
  /** Stripe's brand name: `visa`, `mastercard`, `amex`, … */
  brand: string;
  exp_month: number;
  exp_year: number;
  last4: string;
  /** Issuing country (ISO 3166-1 alpha-2), when Stripe knows it. */
  country: string | null;
  /**
   * Stripe's `card.fingerprint`: the same for one card number on one account, whatever the
   * PaymentMethod or customer (a card saved twice is one card). Null when Stripe gives none.
   */
  fingerprint: string | null;
}

export interface StripeSetupIntentState {
  status: "succeeded" | "requires_payment_method" | "processing" | "canceled";
  customer_id: string;
  payment_method_id: string | null;
  card: StripeSavedCard | null;
}

export interface StripeChargeInput {
  customer_id: string;
  payment_method_id: string;
  /** In cents (Stripe's smallest currency unit for NZD). */
  amount: number;
  currency: "nzd";
  idempotencyKey: string;
  description: string;
  /**
   * Copied onto the PaymentIntent and back in its webhooks: `payment_id`, `organisation_id`,
   * `gym_id`, `subscription_id`, `user_id` (what settlement reads in one batch: payment/webhooks.ts).
   */
  metadata: Record<string, string>;
}

export type StripeChargeStatus =
  | "succeeded"
  | "processing"
  | "requires_payment_method"
  | "requires_action"
  | "canceled";

/** The parts of a PaymentIntent the product reads. */
export interface StripeCharge {
  /** `pi_…` */
  id: string;
  status: StripeChargeStatus;
  /** In cents. */
  amount: number;
  /** Why the card was declined (`last_payment_error.decline_code`): `insufficient_funds`, `lost_card`, … */
  decline_code: string | null;
  /** Stripe's message for the member (`last_payment_error.message`). */
  failure_message: string | null;
  /** `last_payment_error.code`: `card_declined`, `expired_card`, … */
  failure_code: string | null;
  metadata: Record<string, string>;
}

/**
 * Declines that retrying cannot fix: the card is lost, stolen, expired or closed, so the member
 * must give another card (no dunning retries). Everything else (insufficient funds, generic
 * declines, processing errors) is soft and retried.
 */
const HARD_CARD_DECLINES = new Set([
  "lost_card",
  "stolen_card",
  "expired_card",
  "pickup_card",
  "restricted_card",
  "invalid_account",
  "new_account_information_available",
  "card_not_supported",
  "do_not_honor_permanently",
  "revocation_of_authorization",
  "revocation_of_all_authorizations",
]);
export function isHardCardDecline(charge: Pick<StripeCharge, "decline_code" | "failure_code">): boolean {
  return (
    HARD_CARD_DECLINES.has(charge.decline_code ?? "") || HARD_CARD_DECLINES.has(charge.failure_code ?? "")
  );
}

export class WebhookSignatureError extends Error {
  constructor(message = "The webhook signature could not be verified.") {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** A payout as `payouts.list` answers it: no charges. */
export type StripePayoutSummary = Omit<StripePayout, "charges">;

/** A payout to the connected account's bank, as Stripe answers it with its charges (cents). */
export interface StripePayout {
  /** `po_…` */
  id: string;
  status: "paid" | "pending" | "in_transit" | "canceled" | "failed";
  /** What reached the bank: the charges' net. */
  amount: number;
  /** Unix seconds of the day the bank receives it. */
  arrival_date: number;
  charges: StripePayoutCharge[];
}

export interface StripePayoutCharge {
  /** The PaymentIntent the charge belongs to (`pi_…`). */
  payment_intent: string | null;
  /** The PaymentIntent's metadata, copied onto its charge (payment_id, organisation_id, …). */
  metadata: Record<string, string>;
  /** The charge (cents), Stripe's fee on it, and what was left (amount − fee). */
  amount: number;
  fee: number;
  net: number;
}
