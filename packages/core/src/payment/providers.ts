/**
 * Every provider call the money engine makes, in one place, translated into one outcome shape.
 * The ports (providers/stripe, providers/akahu) are the providers' own shapes; this file is the
 * only place that reads them, so the billing machinery never depends on a provider's statuses.
 */
import { classifyDecline } from "../billing/dunning";
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

export function isHardDecline(code: string): boolean {
  return classifyDecline(code).kind === "hard";
}

type Loose = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A Stripe PaymentIntent (the port's StripeCharge, or a webhook's `data.object`) → outcome. */
export function cardOutcome(intent: Loose): ChargeOutcome {
  const id = str(intent.id) ?? "";
  const status = str(intent.status);
  if (status === "succeeded") return { state: "succeeded", providerId: id };
  if (status === "processing" || status === "requires_confirmation")
    return { state: "pending", providerId: id };
  const error = (intent.last_payment_error ?? {}) as Loose;
  const code =
    str(intent.decline_code) ??
    str(error.decline_code) ??
    str(intent.failure_code) ??
    str(error.code) ??
    "card_declined";
  const classified = classifyDecline(code);
  return {
    state: "failed",
    providerId: id || undefined,
    code,
    message: str(intent.failure_message) ?? str(error.message) ?? classified.reason,
    hard: classified.kind === "hard",
  };
}

/** An Akahu payment (the port's AkahuPayment, or a webhook) → outcome. */
export function bankOutcome(payment: Loose): ChargeOutcome {
  const id = str(payment.id) ?? str(payment._id) ?? str(payment.item_id) ?? "";
  const sid = str(payment.sid);
  const status = str(payment.status) ?? "";
  if (status === "SENT") return { state: "succeeded", providerId: id, sid };
  if (["DECLINED", "ERROR", "CANCELLED"].includes(status)) {
    const code = str(payment.status_code) ?? status;
    const classified = classifyDecline(code);
    return {
      state: "failed",
      providerId: id,
      sid,
      code,
      message: str(payment.status_text) ?? classified.reason,
      hard: classified.kind === "hard",
    };
  }
  return { state: "pending", providerId: id, sid };
}

/**
 * A thrown ProviderError: `declined` means the provider refused the request itself (no such saved
 * card, consent revoked, bad account): a hard failure the member must fix. Anything else means we
 * do not know whether the charge exists: `unknown`, left pending for polling and recovery.
 */
function unknownOrFailed(error: unknown, kind: "card" | "bank"): ChargeOutcome {
  if (error instanceof ProviderError && error.kind === "declined") {
    const detail = `${error.message} ${error.detail ?? ""}`;
    const code =
      kind === "card"
        ? "invalid_account"
        : /401|revoked|consent/i.test(detail)
          ? "CONSENT_REVOKED"
          : "INVALID_ACCOUNT";
    return { state: "failed", code, message: error.detail ?? error.message, hard: isHardDecline(code) };
  }
  return { state: "unknown", message: (error as Error).message };
}

const stripe = () => stripeProvider();
const akahu = () => akahuProvider();

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
    return cardOutcome(intent as unknown as Loose);
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
    return bankOutcome(payment as unknown as Loose);
  } catch (error) {
    return unknownOrFailed(error, "bank");
  }
}

export async function cardStatus(account: string, intentId: string): Promise<ChargeOutcome> {
  try {
    return cardOutcome((await stripe().retrievePaymentIntent(account, intentId)) as unknown as Loose);
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
    return bankOutcome((await akahu().getPayment(app, userToken, akahuId)) as unknown as Loose);
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
  since: Date,
): Promise<ChargeOutcome | null> {
  const start = new Date(since.getTime() - 2 * 86_400_000).toISOString();
  const payments = await akahu().listPayments(app, userToken, { start, end: new Date().toISOString() });
  const match = payments.find((p) => p.meta?.particulars === paymentCode || p.meta?.code === paymentCode);
  return match ? bankOutcome(match as unknown as Loose) : null;
}
