/**
 * Every provider call the money engine makes, in one place, translated into one outcome shape.
 * The ports (providers/stripe, providers/akahu) are the providers' own shapes; this file is the
 * only place that reads them, so the billing machinery never depends on a provider's statuses.
 */
import { akahuProvider } from "../providers/akahu/index";
import { ProviderError } from "../providers/errors";
import { stripeProvider } from "../providers/stripe/index";

/** What a provider said about a charge. */
export type ChargeOutcome =
  | { state: "succeeded"; providerId: string; sid?: string }
  | { state: "pending"; providerId: string; sid?: string }
  | { state: "failed"; providerId?: string; sid?: string; code: string; message: string; hard: boolean }
  /** The call did not get an answer (timeout, network, 5xx): the charge may or may not exist. */
  | { state: "unknown"; message: string };

export interface CardCharge {
  account: string;
  customerId: string;
  paymentMethodId: string;
  amount: number;
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export interface BankCharge {
  app: { appToken: string; appSecret: string };
  userToken: string;
  fromAccount: string;
  to: { name: string; account_number: string };
  amount: number;
  reference: { particulars: string; code: string; reference: string };
  idempotencyKey: string;
}

/** Card declines that retrying cannot fix (Stripe decline codes). */
const HARD_CARD = new Set([
  "lost_card",
  "stolen_card",
  "expired_card",
  "pickup_card",
  "restricted_card",
  "revocation_of_authorization",
  "revocation_of_all_authorizations",
  "invalid_account",
  "card_not_supported",
]);
/** Bank failures that retrying cannot fix (Akahu status codes). */
const HARD_BANK = new Set(["ACCOUNT_CLOSED", "CONSENT_REVOKED", "INVALID_ACCOUNT", "AUTHORISATION_REVOKED"]);

export function isHardDecline(kind: "card" | "bank", code: string): boolean {
  return kind === "card" ? HARD_CARD.has(code) : HARD_BANK.has(code.toUpperCase());
}

type Loose = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A Stripe PaymentIntent (as the port answers it) → outcome. */
export function cardOutcome(intent: Loose): ChargeOutcome {
  const id = str(intent.id) ?? "";
  const status = str(intent.status);
  if (status === "succeeded") return { state: "succeeded", providerId: id };
  if (status === "processing" || status === "requires_confirmation")
    return { state: "pending", providerId: id };
  const error = (intent.last_payment_error ?? {}) as Loose;
  const code = str(error.decline_code) ?? str(error.code) ?? "card_declined";
  return {
    state: "failed",
    providerId: id || undefined,
    code,
    message: str(error.message) ?? "The card was declined.",
    hard: isHardDecline("card", code),
  };
}

/** An Akahu payment (as the port answers it) → outcome. */
export function bankOutcome(payment: Loose): ChargeOutcome {
  const id = str(payment._id) ?? str(payment.id) ?? "";
  const sid = str(payment.sid);
  const status = str(payment.status) ?? "";
  if (status === "SENT") return { state: "succeeded", providerId: id, sid };
  if (["DECLINED", "ERROR", "CANCELLED"].includes(status)) {
    const code = str(payment.status_code) ?? status;
    return {
      state: "failed",
      providerId: id,
      sid,
      code,
      message: str(payment.status_text) ?? `The bank payment was ${status.toLowerCase()}.`,
      hard: isHardDecline("bank", code),
    };
  }
  return { state: "pending", providerId: id, sid };
}

function unknownOrFailed(error: unknown, kind: "card" | "bank"): ChargeOutcome {
  if (error instanceof ProviderError && error.kind === "declined") {
    const raw = (error as unknown as { raw?: Loose }).raw;
    if (raw && kind === "card" && raw.payment_intent) return cardOutcome(raw.payment_intent as Loose);
    const code = (error as unknown as { code?: string }).code ?? "declined";
    return { state: "failed", code, message: error.message, hard: isHardDecline(kind, code) };
  }
  return { state: "unknown", message: (error as Error).message };
}

type StripeCharging = {
  chargeOffSession(account: string, input: Loose): Promise<Loose>;
  retrievePaymentIntent(account: string, id: string): Promise<Loose>;
};
type AkahuCharging = {
  createPayment(app: BankCharge["app"], userToken: string, input: Loose): Promise<Loose>;
  getPayment(app: BankCharge["app"], userToken: string, id: string): Promise<Loose>;
  listPayments(app: BankCharge["app"], userToken: string, input?: Loose): Promise<Loose[]>;
};
const stripe = () => stripeProvider() as unknown as StripeCharging;
const akahu = () => akahuProvider() as unknown as AkahuCharging;

export async function chargeCard(charge: CardCharge): Promise<ChargeOutcome> {
  try {
    const intent = await stripe().chargeOffSession(charge.account, {
      customer_id: charge.customerId,
      payment_method_id: charge.paymentMethodId,
      amount: charge.amount,
      currency: "nzd",
      idempotencyKey: charge.idempotencyKey,
      description: charge.description,
      metadata: charge.metadata,
    });
    return cardOutcome(intent);
  } catch (error) {
    return unknownOrFailed(error, "card");
  }
}

export async function chargeBank(charge: BankCharge): Promise<ChargeOutcome> {
  try {
    const payment = await akahu().createPayment(charge.app, charge.userToken, {
      from_account: charge.fromAccount,
      to: { name: charge.to.name, account_number: charge.to.account_number },
      amount: charge.amount,
      reference: charge.reference,
      idempotencyKey: charge.idempotencyKey,
    });
    return bankOutcome(payment);
  } catch (error) {
    return unknownOrFailed(error, "bank");
  }
}

export async function cardStatus(account: string, intentId: string): Promise<ChargeOutcome> {
  try {
    return cardOutcome(await stripe().retrievePaymentIntent(account, intentId));
  } catch (error) {
    return { state: "unknown", message: (error as Error).message };
  }
}

export async function bankStatus(
  app: BankCharge["app"],
  userToken: string,
  akahuId: string,
): Promise<ChargeOutcome> {
  try {
    return bankOutcome(await akahu().getPayment(app, userToken, akahuId));
  } catch (error) {
    return { state: "unknown", message: (error as Error).message };
  }
}

/**
 * After Akahu's 24-hour idempotency window: the member's Akahu payments, searched for one that
 * carries our payment id (in its particulars/code). Null when none does.
 */
export async function findBankPaymentFor(
  app: BankCharge["app"],
  userToken: string,
  paymentCode: string,
): Promise<ChargeOutcome | null> {
  const payments = await akahu().listPayments(app, userToken);
  const match = payments.find((p) => JSON.stringify(p.meta ?? p).includes(paymentCode));
  return match ? bankOutcome(match) : null;
}
