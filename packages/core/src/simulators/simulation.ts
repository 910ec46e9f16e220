import { log } from "../log";
import { deliverWebhook } from "./webhook-delivery";

/**
 * What the simulated card and bank providers share, per process: the ledger of what they took,
 * asynchronous settlement (timers, or polls for the slow bank account), webhook delivery with
 * chaos (duplicates, drops, reordering), and a switch to make the next charge time out. Tests and
 * the local run use it through `simulatedLedger`, `setSimulatedChaos`, `settleSimulatedNow` and
 * `resetSimulatedProviders`; the adapters through the rest. See docs/providers.md.
 */
export type SimulatedProvider = "stripe" | "akahu";

export interface SimulatedLedgerEntry {
  provider: SimulatedProvider;
  /** The key the caller sent: one entry per key (a repeated call answers the first result; at Akahu only within 24 hours). */
  idempotency_key: string;
  /** `pi_…` (Stripe) or `payment_…` (Akahu). */
  provider_id: string;
  /** Stripe: the gym's connected account. Akahu: the member's account paid from. */
  account: string;
  /** Akahu: the payee account number. Stripe: null (the connected account is the payee). */
  to_account: string | null;
  /** In cents. */
  amount: number;
  /** The provider's current status (`processing`, `succeeded`, `requires_payment_method`; `PENDING_APPROVAL`, `SENT`, `DECLINED`, …). */
  status: string;
  /** The status will not change again. */
  final: boolean;
  /** Money actually moved (Stripe `succeeded`, Akahu `SENT`). */
  taken: boolean;
  /** The failure's code (`insufficient_funds`, `INSUFFICIENT_FUNDS`, …), if it failed. */
  failure_code: string | null;
  /** Stripe metadata or Akahu statement fields, as sent. */
  meta: Record<string, string>;
  created_at: string;
  settled_at: string | null;
}

export interface SimulatedChaos {
  /** Probability (0–1) that a webhook is delivered twice (same event, as a provider's redelivery). */
  duplicateWebhooks: number;
  /**
   * Deliver out of order: each charge's interim event (`payment_intent.processing`, Akahu UPDATE
   * `PENDING_APPROVAL`) is held back and delivered after its final one, and a batch settled
   * together is delivered in shuffled order.
   */
  reorderWebhooks: boolean;
  /** Probability (0–1) that a webhook is never delivered (polling must settle it). */
  dropWebhooks: number;
  /**
   * Probability (0–1) that a charge's final event is delivered once more, late: at the start of the
   * next `settleSimulatedNow`, after the app has settled (and polled) the payment (the same event,
   * as a provider's delayed retry).
   */
  lateWebhooks: number;
  /**
   * Probability (0–1) that a settling charge is shadowed by a lying event, delivered just before
   * its genuine final event: correctly signed, for *another* charge at the provider (a Stripe
   * PaymentIntent on the same connected account carrying our metadata and amount; an Akahu payment
   * of someone else's token under our organisation's `state`), with the opposite outcome.
   */
  lyingWebhooks: number;
  /** The next charge (Stripe or Akahu) is taken, but the call throws a timeout ProviderError. Cleared once used. */
  timeoutNextCharge: boolean;
  /** How long after the call a charge settles (setTimeout). */
  settleDelayMs: number;
  /** Seed for the chaos dice, so a test's drops and duplicates are the same every run. */
  seed: number | undefined;
}

const DEFAULT_CHAOS: SimulatedChaos = {
  duplicateWebhooks: 0,
  reorderWebhooks: false,
  dropWebhooks: 0,
  lateWebhooks: 0,
  lyingWebhooks: 0,
  timeoutNextCharge: false,
  settleDelayMs: 50,
  seed: undefined,
};

/** One webhook ready to sign and send. Signing happens at each delivery (fresh timestamp). */
export interface SimulatedWebhook {
  provider: SimulatedProvider;
  /** The event type, for the delivery log (`payment_intent.succeeded`, `PAYMENT.UPDATE`). */
  type: string;
  rawBody: string;
  sign(rawBody: string): Record<string, string>;
}

export interface SimulatedDelivery {
  provider: SimulatedProvider;
  type: string;
  provider_id: string;
  /** `failed`: every attempt of this round failed (it goes out again at the next rounds: RETRY_ROUNDS). */
  outcome: "delivered" | "dropped" | "failed" | "no_deliverer";
  duplicate: boolean;
  /** Which retry round this was (absent: the first sending). */
  retry?: number;
  at: string;
}

interface Pending {
  provider_id: string;
  settle: () => SimulatedWebhook[];
  timer?: ReturnType<typeof setTimeout>;
  /** Settles only by polls (the slow bank account), not by timers or settleSimulatedNow by default. */
  pollGated: boolean;
}

let chaos: SimulatedChaos = { ...DEFAULT_CHAOS };
let random: () => number = Math.random;
/** By provider id; `byKey` finds the latest charge of an idempotency key. */
const ledger = new Map<string, SimulatedLedgerEntry>();
const byKey = new Map<string, string>();
const pending = new Map<string, Pending>();
const held = new Map<string, SimulatedWebhook[]>();
/** Final events to deliver again at the next settleSimulatedNow (lateWebhooks). */
const late: { providerId: string; webhook: SimulatedWebhook }[] = [];
/**
 * Events the app did not take (every attempt of a round answered non-2xx or threw: a 429 of the
 * webhooks' rate limit, a handler's 500). Stripe and Akahu retry an event for days; here it goes
 * out again at each following settleSimulatedNow, for RETRY_ROUNDS rounds, then is given up.
 */
const retries: { providerId: string; webhook: SimulatedWebhook; round: number }[] = [];
export const RETRY_ROUNDS = 24;
const inFlight = new Set<Promise<void>>();
const chains = new Map<string, Promise<void>>();
const deliveries: SimulatedDelivery[] = [];
const resets: (() => void)[] = [];

/** mulberry32: small, fast, good enough for dice. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Changes the chaos settings (merged into the current ones). */
export function setSimulatedChaos(next: Partial<SimulatedChaos>): void {
  chaos = { ...chaos, ...next };
  if ("seed" in next) random = next.seed === undefined ? Math.random : seeded(next.seed);
}

export function simulatedChaos(): Readonly<SimulatedChaos> {
  return { ...chaos };
}

/** Every charge the simulated providers received in this process, oldest first. */
export function simulatedLedger(): SimulatedLedgerEntry[] {
  return [...ledger.values()].map((entry) => ({ ...entry, meta: { ...entry.meta } }));
}

/** What happened to each simulated webhook (delivered, dropped by chaos, failed, or no deliverer). */
export function simulatedDeliveries(): SimulatedDelivery[] {
  return deliveries.map((d) => ({ ...d }));
}

/**
 * Settles every pending charge now (their timers are cancelled) and waits for all webhook
 * deliveries, including ones already under way. The slow bank account settles only by polls
 * unless `pollGated: true`.
 */
export async function settleSimulatedNow(
  options: { pollGated?: boolean } = {},
): Promise<{ settled: number }> {
  // Late redeliveries of events settled before (the app has moved on since).
  for (const { providerId, webhook } of late.splice(0)) dispatch(providerId, webhook, true);
  for (const { providerId, webhook, round } of retries.splice(0))
    dispatch(providerId, webhook, false, round + 1);
  const due = [...pending.values()].filter((p) => options.pollGated || !p.pollGated);
  if (chaos.reorderWebhooks) shuffle(due);
  for (const item of due) settle(item.provider_id);
  await flushSimulatedWebhooks();
  return { settled: due.length };
}

/** Waits until every webhook delivery under way has finished (retries included). */
export async function flushSimulatedWebhooks(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/**
 * Forgets everything simulated in this process: ledger, pending settlements, held webhooks,
 * delivery log, the providers' stores (cards, payments, door access) and chaos (back to defaults).
 */
export function resetSimulatedProviders(): void {
  for (const item of pending.values()) if (item.timer) clearTimeout(item.timer);
  pending.clear();
  held.clear();
  late.length = 0;
  retries.length = 0;
  ledger.clear();
  byKey.clear();
  deliveries.length = 0;
  chaos = { ...DEFAULT_CHAOS };
  random = Math.random;
  for (const reset of resets) reset();
}

// ---- for the adapters ----

/** An adapter's own store is cleared with the rest by resetSimulatedProviders. */
export function onSimulatedReset(reset: () => void): void {
  resets.push(reset);
}

const ledgerKey = (provider: SimulatedProvider, scope: string, key: string) =>
  `${provider}\u0000${scope}\u0000${key}`;

export function ledgerEntry(
  provider: SimulatedProvider,
  scope: string,
  idempotencyKey: string,
): SimulatedLedgerEntry | undefined {
  const id = byKey.get(ledgerKey(provider, scope, idempotencyKey));
  return id ? ledger.get(id) : undefined;
}

/** A charge the provider took (or tried). `scope` is where its idempotency keys live. */
export function recordCharge(scope: string, entry: SimulatedLedgerEntry): SimulatedLedgerEntry {
  ledger.set(entry.provider_id, entry);
  byKey.set(ledgerKey(entry.provider, scope, entry.idempotency_key), entry.provider_id);
  return entry;
}

/** Whether this settling charge gets a lying event (lyingWebhooks); the adapter builds the lie. */
export function rollLie(): boolean {
  return chaos.lyingWebhooks > 0 && random() < chaos.lyingWebhooks;
}

/** Whether the next charge should time out (and clears the switch). */
export function takeTimeout(): boolean {
  if (!chaos.timeoutNextCharge) return false;
  chaos = { ...chaos, timeoutNextCharge: false };
  return true;
}

/**
 * Registers how a charge settles. Timer-driven ones settle after `settleDelayMs`; poll-gated ones
 * when {@link pollSettles} says so. `settle` updates the provider's state and answers the final
 * webhooks to send.
 */
export function scheduleSettlement(
  providerId: string,
  settleFn: () => SimulatedWebhook[],
  options: { pollGated?: boolean } = {},
): void {
  const item: Pending = { provider_id: providerId, settle: settleFn, pollGated: Boolean(options.pollGated) };
  pending.set(providerId, item);
  if (!item.pollGated) {
    item.timer = setTimeout(() => settle(providerId), Math.max(0, chaos.settleDelayMs));
    item.timer.unref?.();
  }
}

export function isPending(providerId: string): boolean {
  return pending.has(providerId);
}

/** Settles one charge now (no-op when already settled). */
export function settle(providerId: string): void {
  const item = pending.get(providerId);
  if (!item) return;
  pending.delete(providerId);
  if (item.timer) clearTimeout(item.timer);
  const finals = item.settle();
  for (const webhook of finals) {
    dispatch(providerId, webhook);
    if (chaos.lateWebhooks > 0 && random() < chaos.lateWebhooks) late.push({ providerId, webhook });
  }
  // Reordered: the interim events arrive after the final one.
  for (const webhook of held.get(providerId) ?? []) dispatch(providerId, webhook);
  held.delete(providerId);
}

/** An event sent before settlement (e.g. processing). Held back when reordering. */
export function sendInterim(providerId: string, webhook: SimulatedWebhook): void {
  if (chaos.reorderWebhooks) {
    held.set(providerId, [...(held.get(providerId) ?? []), webhook]);
    return;
  }
  dispatch(providerId, webhook);
}

/** Marks a ledger entry settled with its final status. */
export function markSettled(
  entry: SimulatedLedgerEntry,
  status: string,
  taken: boolean,
  failureCode: string | null,
): void {
  entry.status = status;
  entry.final = true;
  entry.taken = taken;
  entry.failure_code = failureCode;
  entry.settled_at = new Date().toISOString();
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}

/** Sends one event; `round` > 0: a retry of one the app did not take (never dropped or doubled). */
function dispatch(providerId: string, webhook: SimulatedWebhook, redelivery = false, round = 0): void {
  const at = () => new Date().toISOString();
  if (!redelivery && round === 0 && chaos.dropWebhooks > 0 && random() < chaos.dropWebhooks) {
    deliveries.push({
      provider: webhook.provider,
      type: webhook.type,
      provider_id: providerId,
      outcome: "dropped",
      duplicate: false,
      at: at(),
    });
    return;
  }
  const copies = round === 0 && chaos.duplicateWebhooks > 0 && random() < chaos.duplicateWebhooks ? 2 : 1;
  // One charge's events go out one after another, in the order sent (as a provider's queue per
  // object would); different charges' events go out concurrently.
  const previous = chains.get(providerId) ?? Promise.resolve();
  const task: Promise<void> = previous.then(async () => {
    // A real provider calls over the network: never inside the caller's own request.
    await new Promise((resolve) => setImmediate(resolve));
    for (let copy = 0; copy < copies; copy++) {
      let outcome: SimulatedDelivery["outcome"] = "failed";
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          const sent = await deliverWebhook(webhook.provider, webhook.rawBody, webhook.sign(webhook.rawBody));
          outcome = sent ? "delivered" : "no_deliverer";
          break;
        } catch (error) {
          log.warn("simulated webhook delivery failed", {
            provider: webhook.provider,
            type: webhook.type,
            attempt,
            error: (error as Error).message,
          });
        }
      }
      deliveries.push({
        provider: webhook.provider,
        type: webhook.type,
        provider_id: providerId,
        outcome,
        duplicate: copy > 0 || redelivery,
        at: at(),
        ...(round ? { retry: round } : {}),
      });
      if (outcome === "failed" && round < RETRY_ROUNDS) retries.push({ providerId, webhook, round });
    }
  });
  chains.set(providerId, task);
  inFlight.add(task);
  void task.finally(() => {
    inFlight.delete(task);
    if (chains.get(providerId) === task) chains.delete(providerId);
  });
}
