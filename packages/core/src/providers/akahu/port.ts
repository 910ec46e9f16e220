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

  // Bank payments, made with the member's enduring consent (their user token) from one of their
  // accounts to the gym's destination account. `app` is the gym's own Akahu app or the platform's.

  /**
   * Subscribes the member's token to Akahu's webhooks of the given types with `state` (we pass the
   * organisation id, so the receiver files the event under it). Answers the subscription id.
   */
  subscribeWebhooks(
    app: AkahuApp,
    userToken: string,
    input: { webhook_type: "PAYMENT" | "TOKEN" | "ACCOUNT"; state: string },
  ): Promise<{ webhook_id: string }>;
  /**
   * Creates a payment (`POST /payments`) with the `Idempotency-Key` header: within Akahu's 24 hours
   * the same key answers the first payment, never a second one. Amounts are cents here and
   * dollars (2 decimals) at Akahu, converted exactly. Declines of the input (401 revoked consent,
   * 400 bad account) throw ProviderError `declined`; unreachable or timed out throws `unavailable`
   * (the payment may exist: keep ours pending, poll, or repeat with the same key).
   */
  createPayment(app: AkahuApp, userToken: string, input: AkahuPaymentInput): Promise<AkahuPayment>;
  /** One payment's current state (polling when no webhook came). */
  getPayment(app: AkahuApp, userToken: string, id: string): Promise<AkahuPayment>;
  /**
   * The member's payments created in a date range (ISO dates or times): after Akahu's 24-hour
   * idempotency window, recovery matches our payment id in `meta.particulars` instead of charging.
   */
  listPayments(
    app: AkahuApp,
    userToken: string,
    range: { start: string; end: string },
  ): Promise<AkahuPayment[]>;
}

export interface AkahuPaymentInput {
  /** The member's Akahu account id (`acc_…`) to pay from. */
  from_account: string;
  /** The payee: the gym's destination account, `BB-bbbb-AAAAAAA-SS(S)`. */
  to: { name: string; account_number: string };
  /** In cents. */
  amount: number;
  /** What the gym's statement shows (12 characters each at most; the particulars carry our payment id). */
  reference: { particulars: string; code: string; reference: string };
  idempotencyKey: string;
}

export type AkahuPaymentStatus =
  | "READY"
  | "PENDING_APPROVAL"
  | "PAUSED"
  | "SENT"
  | "DECLINED"
  | "ERROR"
  | "CANCELLED";

export interface AkahuPayment {
  /** `payment_…` */
  id: string;
  /** Akahu's short id shown to the member's bank (`akahu-…`). */
  sid: string;
  status: AkahuPaymentStatus;
  /** Akahu says the status will not change again (SENT, DECLINED, ERROR, CANCELLED). */
  final: boolean;
  /** In cents. */
  amount: number;
  /** Why it failed or paused: INSUFFICIENT_FUNDS, DAILY_LIMIT_EXCEEDED, AFTER_HOURS, INVALID_ACCOUNT, … */
  status_code: string | null;
  status_text: string | null;
  /** The destination statement fields. */
  meta: { particulars?: string; code?: string; reference?: string };
  from_account: string;
  created_at: string;
}

/** Akahu's payment webhook (`webhook_type: "PAYMENT"`, `webhook_code: "UPDATE"`): the payment id is `item_id`. */
export interface AkahuPaymentWebhook extends AkahuWebhookPayload {
  webhook_type: "PAYMENT";
  webhook_code: "UPDATE";
  item_id: string;
  status: AkahuPaymentStatus;
  status_code?: string;
  status_text?: string;
}

/**
 * Failures retrying cannot fix: the account is closed or invalid, or the consent is gone. The
 * member must connect again or choose another method. Insufficient funds, limits, after-hours and
 * bank errors are soft and retried.
 */
const HARD_BANK_FAILURES = new Set([
  "ACCOUNT_CLOSED",
  "INVALID_ACCOUNT",
  "AUTHENTICATION_FAILED",
  "USER_CANCELLED",
  "CONSENT_REVOKED",
  "MFA_UNSUPPORTED",
  "MULTISIG_UNSUPPORTED",
]);
export function isHardBankFailure(payment: Pick<AkahuPayment, "status_code">): boolean {
  return HARD_BANK_FAILURES.has(payment.status_code ?? "");
}

/** Cents (integer) to Akahu's dollars with at most 2 decimals, exactly (no float arithmetic on money). */
export function centsToDollars(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return Number(`${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`);
}

/** Akahu's dollars back to cents, exactly: parses the decimal text rather than multiplying a float. */
export function dollarsToCents(dollars: number | string): number {
  const text = typeof dollars === "number" ? dollars.toFixed(2) : dollars.trim();
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new RangeError(`Not an amount in dollars: ${dollars}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "0").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}
