import { createHash, randomBytes } from "node:crypto";
import {
  type AkahuAccount,
  type AkahuPayment,
  type AkahuPaymentInput,
  type AkahuPaymentStatus,
  centsToDollars,
  dollarsToCents,
} from "../providers/akahu/port";
import { ProviderError } from "../providers/errors";
import {
  ledgerEntry,
  markSettled,
  onSimulatedReset,
  recordCharge,
  rollLie,
  type SimulatedWebhook,
  scheduleSettlement,
  sendInterim,
  settle,
  takeTimeout,
} from "./simulation";

/**
 * The simulated bank: what each of a member's accounts does when paid from (encoded in the account
 * id, `acc_sim_<kind>_…`, so the consent page and any test can pick one), the payments made with a
 * member's token, Akahu's 24-hour idempotency keys, and the PAYMENT webhooks of tokens subscribed
 * to them. Payments answer `PENDING_APPROVAL` and settle later (see simulation.ts).
 */
export type SimulatedBankAccountKind = "pays" | "lowfunds" | "closed" | "slow";

export const SIMULATED_BANK_ACCOUNTS: {
  kind: SimulatedBankAccountKind;
  name: string;
  type: string;
  suffix: string;
  note: string;
}[] = [
  { kind: "pays", name: "Everyday", type: "CHECKING", suffix: "00", note: "pays" },
  { kind: "pays", name: "Savings", type: "SAVINGS", suffix: "01", note: "pays" },
  {
    kind: "lowfunds",
    name: "Low balance",
    type: "CHECKING",
    suffix: "02",
    note: "declined, INSUFFICIENT_FUNDS (soft: retried)",
  },
  {
    kind: "closed",
    name: "Closed account",
    type: "CHECKING",
    suffix: "03",
    note: "declined, INVALID_ACCOUNT: the account is closed (hard: not retried)",
  },
  {
    kind: "slow",
    name: "Slow bank",
    type: "CHECKING",
    suffix: "04",
    note: "pending for two polls, then sent",
  },
];

export const SIMULATED_TOKEN_PREFIX = "user_token_sim_";

/** A simulated member's accounts, the same for the same token, as a bank would show them. */
export function simulatedAccountsFor(token: string): AkahuAccount[] {
  const seed = createHash("sha256").update(token).digest("hex");
  const digits = (from: number) =>
    String(Number.parseInt(seed.slice(from, from + 8), 16) % 10_000_000).padStart(7, "0");
  return SIMULATED_BANK_ACCOUNTS.map((account, index) => ({
    id: `acc_sim_${account.kind}_${seed.slice(index * 10, index * 10 + 10)}`,
    name: account.name,
    formatted_account: `12-3140-${digits(index * 8)}-${account.suffix}`,
    type: account.type,
    status: "ACTIVE",
    connection: "Simulated Bank",
  }));
}

export function simulatedAccountKind(accountId: string): SimulatedBankAccountKind {
  const kind = /^acc_sim_([a-z]+)_/.exec(accountId)?.[1];
  return SIMULATED_BANK_ACCOUNTS.some((a) => a.kind === kind) ? (kind as SimulatedBankAccountKind) : "pays";
}

interface StoredPayment {
  payment: AkahuPayment;
  token: string;
  to: { name: string; account_number: string };
  polls: number;
  timeline: { status: AkahuPaymentStatus; time: string }[];
}

const DAY = 24 * 60 * 60 * 1000;
const payments = new Map<string, StoredPayment>();
/** Idempotency-Key → first answer, per app (Akahu keeps them 24 hours). */
const keys = new Map<string, { params: string; answer: AkahuPayment; at: number }>();
/** Token → PAYMENT webhook subscription state. */
const subscriptions = new Map<string, { id: string; state: string }>();
onSimulatedReset(() => {
  payments.clear();
  keys.clear();
  subscriptions.clear();
});

const declined = (detail: string, message = "Akahu did not accept the payment.") =>
  new ProviderError("akahu", message, "declined", detail);

function checkToken(token: string) {
  if (!token.startsWith(SIMULATED_TOKEN_PREFIX))
    throw declined("Unauthorized", "Akahu did not accept the bank connection.");
}

export function subscribeSimulated(
  token: string,
  input: { webhook_type: string; state: string },
): { webhook_id: string } {
  checkToken(token);
  const key = `${token}\u0000${input.webhook_type}`;
  const id = subscriptions.get(key)?.id ?? `hook_sim${randomBytes(8).toString("hex")}`;
  subscriptions.set(key, { id, state: input.state });
  return { webhook_id: id };
}

const copy = (stored: StoredPayment): AkahuPayment => ({
  ...stored.payment,
  meta: { ...stored.payment.meta },
});

/** Akahu's payment as its API answers it (amount in dollars): what the webhook's readers could fetch. */
export function simulatedAkahuApiPayment(stored: StoredPayment) {
  const p = stored.payment;
  return {
    _id: p.id,
    sid: p.sid,
    from: p.from_account,
    to: stored.to,
    amount: centsToDollars(p.amount),
    meta: { source: {}, destination: { ...p.meta } },
    status: p.status,
    ...(p.status_code ? { status_code: p.status_code, status_text: p.status_text } : {}),
    final: p.final,
    timeline: stored.timeline,
    created_at: p.created_at,
    updated_at: stored.timeline[stored.timeline.length - 1]?.time ?? p.created_at,
  };
}

function webhook(
  stored: StoredPayment,
  sign: (body: string) => { keyId: string; signature: string },
): SimulatedWebhook | null {
  const subscription = subscriptions.get(`${stored.token}\u0000PAYMENT`);
  // Akahu sends payment webhooks only to tokens subscribed to them.
  if (!subscription) return null;
  const p = stored.payment;
  const rawBody = JSON.stringify({
    webhook_type: "PAYMENT",
    webhook_code: "UPDATE",
    state: subscription.state,
    item_id: p.id,
    status: p.status,
    ...(p.status_code ? { status_code: p.status_code, status_text: p.status_text } : {}),
  });
  return {
    provider: "akahu",
    type: `PAYMENT.UPDATE.${p.status}`,
    rawBody,
    sign: (body) => {
      const { keyId, signature } = sign(body);
      return {
        "content-type": "application/json",
        "x-akahu-signature": signature,
        "x-akahu-signing-key": keyId,
      };
    },
  };
}

const FIELD = /^[\x20-\x7e]{0,12}$/;

export function createSimulatedPayment(
  appToken: string,
  token: string,
  input: AkahuPaymentInput,
  sign: (body: string) => { keyId: string; signature: string },
  now = Date.now(),
): AkahuPayment {
  checkToken(token);
  const account = simulatedAccountsFor(token).find((a) => a.id === input.from_account);
  if (!account) throw declined(`Account ${input.from_account} not found for this user.`);
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw declined(`Invalid amount: ${input.amount} cents`);
  if (!/^\d{2}-\d{4}-\d{7}-\d{2,3}$/.test(input.to.account_number))
    throw declined(`Invalid payee account number: ${input.to.account_number}`);
  for (const [field, value] of Object.entries(input.reference)) {
    if (!FIELD.test(value)) throw declined(`meta.destination.${field} must be at most 12 plain characters.`);
  }

  const params = JSON.stringify({ token, ...input, idempotencyKey: undefined });
  const idemKey = `${appToken}\u0000${input.idempotencyKey}`;
  const seen = keys.get(idemKey);
  if (seen && now - seen.at < DAY) {
    if (seen.params !== params) throw declined("Idempotency-Key reused with a different request.");
    return { ...seen.answer, meta: { ...seen.answer.meta } };
  }

  const createdAt = new Date(now).toISOString();
  const id = `payment_sim${randomBytes(10).toString("hex")}`;
  const stored: StoredPayment = {
    payment: {
      id,
      sid: `akahu-${randomBytes(4).toString("hex").toUpperCase()}`,
      status: "PENDING_APPROVAL",
      final: false,
      amount: dollarsToCents(centsToDollars(input.amount)),
      status_code: null,
      status_text: null,
      meta: { ...input.reference },
      from_account: input.from_account,
      created_at: createdAt,
    },
    token,
    to: { ...input.to },
    polls: 0,
    timeline: [
      { status: "READY", time: createdAt },
      { status: "PENDING_APPROVAL", time: createdAt },
    ],
  };
  payments.set(id, stored);
  keys.set(idemKey, { params, answer: copy(stored), at: now });
  const entry = recordCharge(`${appToken}:${token}`, {
    provider: "akahu",
    idempotency_key: input.idempotencyKey,
    provider_id: id,
    account: input.from_account,
    to_account: input.to.account_number,
    amount: input.amount,
    status: "PENDING_APPROVAL",
    final: false,
    taken: false,
    failure_code: null,
    meta: { ...input.reference },
    created_at: createdAt,
    settled_at: null,
  });
  const interim = webhook(stored, sign);
  if (interim) sendInterim(id, interim);

  const kind = simulatedAccountKind(input.from_account);
  scheduleSettlement(
    id,
    () => {
      const p = stored.payment;
      if (kind === "lowfunds") {
        Object.assign(p, {
          status: "DECLINED",
          status_code: "INSUFFICIENT_FUNDS",
          status_text: "Insufficient funds in the account to make this payment.",
        });
      } else if (kind === "closed") {
        Object.assign(p, {
          status: "DECLINED",
          status_code: "INVALID_ACCOUNT",
          status_text: "The account this payment is from is closed.",
        });
      } else {
        p.status = "SENT";
      }
      p.final = true;
      stored.timeline.push({ status: p.status, time: new Date().toISOString() });
      markSettled(entry, p.status, p.status === "SENT", p.status_code);
      const final = webhook(stored, sign);
      // chaos.lyingWebhooks: someone else's payment at Akahu (another token) settles the other way;
      // its event carries our organisation's `state` (delivered first).
      const lies: SimulatedWebhook[] = [];
      const subscription = subscriptions.get(`${stored.token}\u0000PAYMENT`);
      if (final && subscription && rollLie()) {
        const lieId = `payment_sim${randomBytes(10).toString("hex")}`;
        const lie: StoredPayment = {
          ...stored,
          token: `${stored.token}_someone_else`,
          payment: {
            ...p,
            id: lieId,
            ...(p.status === "SENT"
              ? {
                  status: "DECLINED" as const,
                  status_code: "INSUFFICIENT_FUNDS",
                  status_text: "Insufficient funds in the account to make this payment.",
                }
              : { status: "SENT" as const, status_code: null, status_text: null }),
          },
          timeline: [...stored.timeline],
        };
        payments.set(lieId, lie);
        const body = JSON.stringify({
          webhook_type: "PAYMENT",
          webhook_code: "UPDATE",
          state: subscription.state,
          item_id: lieId,
          status: lie.payment.status,
          ...(lie.payment.status_code
            ? { status_code: lie.payment.status_code, status_text: lie.payment.status_text }
            : {}),
        });
        lies.push({ ...final, type: `PAYMENT.UPDATE.${lie.payment.status}`, rawBody: body });
      }
      return final ? [...lies, final] : [];
    },
    { pollGated: kind === "slow" },
  );
  if (takeTimeout()) {
    throw new ProviderError(
      "akahu",
      "Akahu could not be reached. Please try again.",
      "unavailable",
      "timeout of 20000ms exceeded (simulated: the payment was made)",
    );
  }
  return copy(stored);
}

function owned(token: string, id: string): StoredPayment {
  checkToken(token);
  const stored = payments.get(id);
  if (!stored || stored.token !== token) throw declined(`Payment ${id} not found.`);
  return stored;
}

/** A poll. The slow account's payment settles after its second poll (the third sees it sent). */
export function getSimulatedPayment(token: string, id: string): AkahuPayment {
  const stored = owned(token, id);
  const answer = copy(stored);
  stored.polls += 1;
  if (
    !stored.payment.final &&
    simulatedAccountKind(stored.payment.from_account) === "slow" &&
    stored.polls >= 2
  )
    settle(id);
  return answer;
}

function instant(value: string, endOfDay: boolean): number {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at)) throw declined(`Invalid date: ${value}`);
  return dateOnly && endOfDay ? at + DAY - 1 : at;
}

export function listSimulatedPayments(token: string, range: { start: string; end: string }): AkahuPayment[] {
  checkToken(token);
  const start = instant(range.start, false);
  const end = instant(range.end, true);
  return [...payments.values()]
    .filter((p) => p.token === token)
    .filter((p) => {
      const at = Date.parse(p.payment.created_at);
      return at >= start && at <= end;
    })
    .map(copy);
}

export function simulatedAkahuKeyUsed(appToken: string, token: string, key: string): boolean {
  return ledgerEntry("akahu", `${appToken}:${token}`, key) !== undefined;
}
