import { createHash, randomBytes } from "node:crypto";
import { aucklandDate } from "../billing/calendar";
import { ProviderError } from "../providers/errors";
import type {
  StripeCharge,
  StripeChargeInput,
  StripeChargeStatus,
  StripeSetupIntent,
  StripeSetupIntentInput,
  StripeSetupIntentState,
} from "../providers/stripe/port";
import { signStripePayload } from "../providers/stripe/verify";
import {
  ledgerEntry,
  markSettled,
  onSimulatedReset,
  recordCharge,
  rollLie,
  type SimulatedWebhook,
  scheduleSettlement,
  sendInterim,
  takeTimeout,
} from "./simulation";
import { EXPIRED_CARD, luhnValid, type SimulatedCardDecline, simulatedCard } from "./stripe-cards";

/**
 * The simulated Stripe's saved cards and payments, per connected account and per process (like
 * Stripe, an object of one connected account is invisible from another). Charges answer
 * `processing` and settle after the chaos settings' delay (or `settleSimulatedNow`) with a signed
 * `payment_intent.succeeded` / `payment_intent.payment_failed` event for the connected account.
 */
interface Customer {
  id: string;
  email: string;
  name: string;
}
interface SetupIntent {
  id: string;
  client_secret: string;
  customer: string;
  status: StripeSetupIntentState["status"];
  payment_method: string | null;
}
interface PaymentMethod {
  id: string;
  customer: string;
  number: string;
  brand: string;
  country: string;
  exp_month: number;
  exp_year: number;
}
interface PaymentIntent {
  id: string;
  created: number;
  amount: number;
  customer: string;
  payment_method: string;
  description: string;
  metadata: Record<string, string>;
  status: StripeChargeStatus;
  error: SimulatedCardDecline | null;
  idempotency_key: string;
}
interface AccountStore {
  customers: Map<string, Customer>;
  setupIntents: Map<string, SetupIntent>;
  paymentMethods: Map<string, PaymentMethod>;
  paymentIntents: Map<string, PaymentIntent>;
  /** Idempotency key → the first answer (and what was asked), as Stripe keeps them. */
  idempotent: Map<string, { params: string; answer: unknown }>;
}

const accounts = new Map<string, AccountStore>();
onSimulatedReset(() => accounts.clear());

const id = (prefix: string) => `${prefix}_sim${randomBytes(9).toString("hex")}`;

function store(account: string): AccountStore {
  if (!/^acct_\w+$/.test(account)) {
    throw new ProviderError(
      "stripe",
      "Stripe did not accept the request.",
      "declined",
      `The provided key does not have access to account '${account}' (or that account does not exist).`,
    );
  }
  let found = accounts.get(account);
  if (!found) {
    found = {
      customers: new Map(),
      setupIntents: new Map(),
      paymentMethods: new Map(),
      paymentIntents: new Map(),
      idempotent: new Map(),
    };
    accounts.set(account, found);
  }
  return found;
}

const noSuch = (what: string, value: string) =>
  new ProviderError(
    "stripe",
    "Stripe did not accept the request.",
    "declined",
    `No such ${what}: '${value}'`,
  );

/** Stripe answers the first result for a repeated key, and refuses the key with other parameters. */
function idempotent<T>(s: AccountStore, key: string, params: unknown, run: () => T): T {
  const asked = JSON.stringify(params);
  const seen = s.idempotent.get(key);
  if (seen) {
    if (seen.params !== asked) {
      throw new ProviderError(
        "stripe",
        "Stripe did not accept the request.",
        "declined",
        "Keys for idempotent requests can only be used with the same parameters they were first used with.",
      );
    }
    return structuredClone(seen.answer) as T;
  }
  const answer = run();
  s.idempotent.set(key, { params: asked, answer: structuredClone(answer) });
  return answer;
}

export function createSimulatedSetupIntent(
  account: string,
  input: StripeSetupIntentInput,
): StripeSetupIntent {
  const s = store(account);
  return idempotent(s, input.idempotencyKey, { ...input, idempotencyKey: undefined }, () => {
    let customer: string;
    if (input.customer_id) {
      if (!s.customers.has(input.customer_id)) throw noSuch("customer", input.customer_id);
      customer = input.customer_id;
    } else {
      customer = id("cus");
      s.customers.set(customer, { id: customer, email: input.email, name: input.name });
    }
    const setupId = id("seti");
    const intent: SetupIntent = {
      id: setupId,
      client_secret: `${setupId}_secret_${randomBytes(12).toString("hex")}`,
      customer,
      status: "requires_payment_method",
      payment_method: null,
    };
    s.setupIntents.set(setupId, intent);
    return { setup_intent_id: setupId, client_secret: intent.client_secret, customer_id: customer };
  });
}

function setupState(s: AccountStore, intent: SetupIntent): StripeSetupIntentState {
  const method = intent.payment_method ? s.paymentMethods.get(intent.payment_method) : undefined;
  return {
    status: intent.status,
    customer_id: intent.customer,
    payment_method_id: intent.payment_method,
    card: method
      ? {
          brand: method.brand,
          exp_month: method.exp_month,
          exp_year: method.exp_year,
          last4: method.number.slice(-4),
          country: method.country,
          // As Stripe: one card number on one account has one fingerprint.
          fingerprint: createHash("sha256").update(`${method.number}`).digest("hex").slice(0, 16),
        }
      : null,
  };
}

export function retrieveSimulatedSetupIntent(account: string, setupId: string): StripeSetupIntentState {
  const s = store(account);
  const intent = s.setupIntents.get(setupId);
  if (!intent) throw noSuch("setup_intent", setupId);
  return setupState(s, intent);
}

/** The card form's submit: Stripe.js confirming the SetupIntent with the entered card. */
export function confirmSimulatedSetupIntent(
  account: string,
  setupId: string,
  card: { number: string; exp_month?: number; exp_year?: number; client_secret?: string },
  now = new Date(),
): StripeSetupIntentState {
  const s = store(account);
  const intent = s.setupIntents.get(setupId);
  if (!intent) throw noSuch("setup_intent", setupId);
  const refuse = (message: string, detail = message) => {
    throw new ProviderError("stripe", message, "declined", detail);
  };
  if (card.client_secret !== undefined && card.client_secret !== intent.client_secret)
    refuse("The client_secret provided does not match the client_secret associated with the SetupIntent.");
  if (intent.status === "succeeded")
    refuse("You cannot confirm this SetupIntent because it has already succeeded.");
  const number = card.number.replace(/[\s-]/g, "");
  if (!luhnValid(number)) refuse("Your card number is incorrect.", "incorrect_number");
  const exp_month = card.exp_month ?? 12;
  const exp_year = card.exp_year ?? now.getUTCFullYear() + 3;
  if (!Number.isInteger(exp_month) || exp_month < 1 || exp_month > 12)
    refuse("Your card's expiration month is invalid.", "invalid_expiry_month");
  if (
    !Number.isInteger(exp_year) ||
    exp_year < now.getUTCFullYear() ||
    (exp_year === now.getUTCFullYear() && exp_month < now.getUTCMonth() + 1)
  )
    refuse("Your card's expiration year is invalid.", "invalid_expiry_year");
  const behaviour = simulatedCard(number);
  if (behaviour.setup) refuse(behaviour.setup.message, behaviour.setup.decline_code);
  const method: PaymentMethod = {
    id: id("pm"),
    customer: intent.customer,
    number,
    brand: behaviour.brand,
    country: behaviour.country,
    exp_month,
    exp_year,
  };
  s.paymentMethods.set(method.id, method);
  intent.status = "succeeded";
  intent.payment_method = method.id;
  return setupState(s, intent);
}

function charge(intent: PaymentIntent): StripeCharge {
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    decline_code: intent.status === "requires_payment_method" ? (intent.error?.decline_code ?? null) : null,
    failure_message: intent.status === "requires_payment_method" ? (intent.error?.message ?? null) : null,
    failure_code: intent.status === "requires_payment_method" ? (intent.error?.code ?? null) : null,
    metadata: { ...intent.metadata },
  };
}

/** The PaymentIntent as Stripe puts it in `data.object`. */
function paymentIntentObject(intent: PaymentIntent) {
  const failed = intent.status === "requires_payment_method" && intent.error;
  return {
    id: intent.id,
    object: "payment_intent",
    amount: intent.amount,
    amount_received: intent.status === "succeeded" ? intent.amount : 0,
    currency: "nzd",
    customer: intent.customer,
    payment_method: intent.payment_method,
    payment_method_types: ["card"],
    description: intent.description,
    metadata: { ...intent.metadata },
    status: intent.status,
    created: intent.created,
    livemode: false,
    confirmation_method: "automatic",
    capture_method: "automatic",
    latest_charge: intent.status === "processing" ? null : `ch_${intent.id.slice(3)}`,
    last_payment_error: failed
      ? {
          type: "card_error",
          code: intent.error?.code,
          decline_code: intent.error?.decline_code,
          message: intent.error?.message,
          charge: `ch_${intent.id.slice(3)}`,
          payment_method: { id: intent.payment_method, object: "payment_method", type: "card" },
        }
      : null,
  };
}

function event(account: string, type: string, intent: PaymentIntent, secret: string): SimulatedWebhook {
  const rawBody = JSON.stringify(
    {
      id: id("evt"),
      object: "event",
      api_version: "2025-10-29.clover",
      account,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: intent.idempotency_key },
      type,
      data: { object: paymentIntentObject(intent) },
    },
    null,
    2,
  );
  return {
    provider: "stripe",
    type,
    rawBody,
    sign: (body) => ({
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": signStripePayload(body, secret),
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    }),
  };
}

export function chargeSimulated(
  account: string,
  input: StripeChargeInput,
  webhookSecret: string,
  now = new Date(),
): StripeCharge {
  const s = store(account);
  if (!Number.isSafeInteger(input.amount) || input.amount < 50) {
    throw new ProviderError(
      "stripe",
      "Stripe did not accept the request.",
      "declined",
      "Amount must be at least $0.50 nzd",
    );
  }
  if (input.currency !== "nzd") throw noSuch("currency", String(input.currency));
  let tookNow = false;
  const answer = idempotent(s, input.idempotencyKey, { ...input, idempotencyKey: undefined }, () => {
    const method = s.paymentMethods.get(input.payment_method_id);
    if (!method) throw noSuch("PaymentMethod", input.payment_method_id);
    if (method.customer !== input.customer_id) {
      throw new ProviderError(
        "stripe",
        "Stripe did not accept the request.",
        "declined",
        `The provided PaymentMethod ${input.payment_method_id} does not belong to customer ${input.customer_id}.`,
      );
    }
    const intent: PaymentIntent = {
      id: id("pi"),
      created: Math.floor(Date.now() / 1000),
      amount: input.amount,
      customer: input.customer_id,
      payment_method: input.payment_method_id,
      description: input.description,
      metadata: { ...input.metadata },
      status: "processing",
      error: null,
      idempotency_key: input.idempotencyKey,
    };
    s.paymentIntents.set(intent.id, intent);
    const entry = recordCharge(account, {
      provider: "stripe",
      idempotency_key: input.idempotencyKey,
      provider_id: intent.id,
      account,
      to_account: null,
      amount: input.amount,
      status: "processing",
      final: false,
      taken: false,
      failure_code: null,
      meta: { ...input.metadata },
      created_at: new Date().toISOString(),
      settled_at: null,
    });
    sendInterim(intent.id, event(account, "payment_intent.processing", intent, webhookSecret));
    // A card is good to the end of its expiry month (Auckland); after it Stripe declines it.
    const expired =
      `${method.exp_year}-${String(method.exp_month).padStart(2, "0")}` < aucklandDate(now).slice(0, 7);
    const outcome = expired ? EXPIRED_CARD : simulatedCard(method.number).charge;
    scheduleSettlement(intent.id, () => {
      intent.status = outcome ? "requires_payment_method" : "succeeded";
      intent.error = outcome;
      markSettled(entry, intent.status, !outcome, outcome?.decline_code ?? null);
      // chaos.lyingWebhooks: another PaymentIntent on the account, made by someone else with our
      // metadata and amount copied, settles the other way; its (genuine, signed) event goes first.
      const lies: SimulatedWebhook[] = [];
      if (rollLie()) {
        const lie: PaymentIntent = {
          ...intent,
          id: id("pi"),
          metadata: { ...intent.metadata },
          idempotency_key: `someone-else-${intent.idempotency_key}`,
          status: outcome ? "succeeded" : "requires_payment_method",
          error: outcome
            ? null
            : { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." },
        };
        s.paymentIntents.set(lie.id, lie);
        lies.push(
          event(
            account,
            lie.status === "succeeded" ? "payment_intent.succeeded" : "payment_intent.payment_failed",
            lie,
            webhookSecret,
          ),
        );
      }
      return [
        ...lies,
        event(
          account,
          outcome ? "payment_intent.payment_failed" : "payment_intent.succeeded",
          intent,
          webhookSecret,
        ),
      ];
    });
    tookNow = true;
    return charge(intent);
  });
  if (tookNow && takeTimeout()) {
    throw new ProviderError(
      "stripe",
      "Stripe could not be reached. Please try again.",
      "unavailable",
      "Request timed out (simulated: the charge was taken)",
    );
  }
  return answer;
}

export function retrieveSimulatedPaymentIntent(account: string, intentId: string): StripeCharge {
  const intent = store(account).paymentIntents.get(intentId);
  if (!intent) throw noSuch("payment_intent", intentId);
  return charge(intent);
}

/** For tests: was this idempotency key ever used on the account (without charging). */
export function simulatedStripeKeyUsed(account: string, key: string): boolean {
  return ledgerEntry("stripe", account, key) !== undefined;
}

/**
 * Each connected account's succeeded PaymentIntents, oldest first (what its payouts pay out:
 * stripe-payouts.ts). The chaos's lying PaymentIntents are left out: they stand for an event, not
 * for money on the account.
 */
export function simulatedSucceededIntents(): [
  account: string,
  intents: { id: string; amount: number; metadata: Record<string, string> }[],
][] {
  return [...accounts].map(([account, s]) => [
    account,
    [...s.paymentIntents.values()]
      .filter((i) => i.status === "succeeded" && !i.idempotency_key.startsWith("someone-else-"))
      .sort((a, b) => a.created - b.created)
      .map((i) => ({ id: i.id, amount: i.amount, metadata: { ...i.metadata } })),
  ]);
}
