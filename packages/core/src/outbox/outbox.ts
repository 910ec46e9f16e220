/**
 * The outbox (docs/data-model.md "The outbox"): reactions between layers that survive a crash.
 *
 * A change that other layers react to writes its event in the SAME transaction (`outboxItem`), so
 * the change and its event commit together or not at all. The event is then delivered at least
 * once: right after the commit by the writer (`deliverCommitted`, the usual path: the reaction is
 * done before the request answers), and otherwise by the table's stream in AWS (the
 * `outbox-stream` function) and by the `outbox` job, which drains whatever is left (a Lambda that
 * died between the commit and the reaction, a handler that failed). A delivery holds a lease on the
 * item, runs the handler, and deletes the item: the inline delivery and the stream's do not both
 * run it, and one that died is tried again once its lease expires. The writer's own inline delivery
 * holds its lease from the commit (the item is written leased to it: `inline`); any other delivery
 * takes the lease first (a conditional UpdateItem). A handler may still run twice
 * (it died after its work, before the delete), so every handler is idempotent: it is given the
 * event's id and converges on the state now (door access synced, the receipt issued once per payment).
 *
 * An event type with no subscriber fails closed: the delivery throws, logs an error and counts
 * `OutboxUndelivered` (alarmed), and the item stays until a process that has the subscriber delivers it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { db } from "../db/service";
import { shardOf, WORK_SHARDS } from "../db/shards";
import { newId } from "../ids";
import { log } from "../log";
import { outboxUndeliveredMetric } from "../metrics";
import { racePoint } from "../race-points";
import type { OutboxEvents, OutboxType } from "./events";

export interface OutboxEvent<T extends OutboxType = OutboxType> {
  event_id: string;
  shard: number;
  type: T;
  payload: OutboxEvents[T];
  /**
   * Its writer delivers it itself right after the commit (`deliverCommitted`): the item is written
   * already leased to the writer (`outboxItem`), so the inline delivery takes no lease, and the
   * stream and the drain leave it alone until that lease expires (a writer that died after its
   * commit). The one place this is decided: `outboxEvent`, for a new event as its writer holds it;
   * an item read back from the table has none (a redelivery always takes the lease).
   */
  inline?: boolean;
}

/** How long a delivery may run before another may take the event over. */
export const LEASE_MS = 60_000;

/** The end of a lease taken at `now` (real time: leases are machinery, whatever the business clock). */
const leaseEnd = (now: Date) => new Date(now.getTime() + LEASE_MS).toISOString();

/** Is the item leased at `now` (a delivery in progress, or its writer's lease from the commit)? */
const leased = (item: { lease_until?: string }, now: Date) =>
  item.lease_until !== undefined && item.lease_until > now.toISOString();

/**
 * A new event (its id, its shard): written with `outboxItem`, then handed to `deliverCommitted`.
 * A writer that will not deliver it inline says so (`inline: false`): its item is then written
 * unleased, for the stream and the drain at once (leased, it would wait out the lease for nothing).
 */
export function outboxEvent<T extends OutboxType>(
  type: T,
  payload: OutboxEvents[T],
  { inline = true }: { inline?: boolean } = {},
): OutboxEvent<T> {
  const event_id = newId();
  return { event_id, shard: shardOf(event_id), type, payload, inline };
}

type TransactionEntities = Parameters<Parameters<ReturnType<typeof db>["transaction"]["write"]>[0]>[0];

/**
 * The event's item in the change's own transaction: leased to the writer from the commit (its
 * first delivery started, `attempts` 1) when the writer delivers it inline (`inline`).
 */
export function outboxItem(
  { outboxEvent }: Pick<TransactionEntities, "outboxEvent">,
  event: OutboxEvent,
): never {
  return outboxEvent
    .create({
      shard: event.shard,
      event_id: event.event_id,
      type: event.type,
      payload: event.payload,
      ...(event.inline ? { lease_until: leaseEnd(new Date()), attempts: 1 } : {}),
    })
    .commit() as never;
}

/**
 * What a handler is given beside the payload: the event's id (its work is keyed by it, so a
 * redelivery does it once) and, only when delivered inline by the writer's own process, what the
 * writer read (`held`: records of this request, to spare reading them again). A redelivery has no
 * `held`: the handler reads what it needs.
 */
export type OutboxMeta = { event_id: string; held?: unknown };
type Handler<T extends OutboxType> = (payload: OutboxEvents[T], meta: OutboxMeta) => Promise<void>;
const handlers = new Map<string, Handler<never>>();

/** Subscribes the one handler of an event type (core.ts wires them). */
export function onOutboxEvent<T extends OutboxType>(type: T, handler: Handler<T>): void {
  if (handlers.has(type)) throw new Error(`outbox event ${type} already has its subscriber`);
  handlers.set(type, handler as Handler<never>);
}

/** Is the type subscribed in this process? (core.ts checks each after wiring.) */
export function hasOutboxSubscriber(type: string): boolean {
  return handlers.has(type);
}

/** An event no subscriber took: the delivery refused it, the item stays. */
export class OutboxUndeliverable extends Error {}

export type Delivery = "delivered" | "busy" | "gone";

function conditionFailed(error: unknown): boolean {
  const e = error as { name?: string; cause?: { name?: string } } | undefined;
  return (
    e?.name === "ConditionalCheckFailedException" || e?.cause?.name === "ConditionalCheckFailedException"
  );
}

/**
 * Delivers one event: "delivered" (the handler ran, the item is gone), "busy" (another delivery
 * holds its lease) or "gone" (delivered already: a redelivered stream record). Throws when the type
 * has no subscriber or the handler failed (the item stays, its lease expires, the drain tries again).
 */
export async function deliverOutboxEvent(
  event: OutboxEvent,
  now = new Date(),
  held?: unknown,
): Promise<Delivery> {
  const handler = subscriberOf(event);
  const lease = await takeLease(event, now);
  if (lease !== "taken") return lease;
  await handle(handler, event, held);
  await removeDelivered(event);
  return "delivered";
}

/** The type's handler; none fails closed (counted, logged, thrown: the item stays). */
function subscriberOf(event: OutboxEvent): Handler<never> {
  const handler = handlers.get(event.type);
  if (handler) return handler;
  outboxUndeliveredMetric({ type: event.type, reason: "no_subscriber" });
  log.error("outbox event has no subscriber", { event_id: event.event_id, type: event.type });
  throw new OutboxUndeliverable(`outbox event ${event.type} has no subscriber: call createCore (core.ts)`);
}

/** The item's lease, taken unless another delivery holds it ("busy") or it was delivered ("gone"). */
async function takeLease(event: OutboxEvent, now: Date): Promise<Exclude<Delivery, "delivered"> | "taken"> {
  const key = { shard: event.shard, event_id: event.event_id };
  try {
    await db()
      .entities.outboxEvent.patch(key)
      .set({ lease_until: leaseEnd(now) })
      .add({ attempts: 1 })
      .where((a, op) => `(${op.notExists(a.lease_until)} OR ${op.lt(a.lease_until, now.toISOString())})`)
      .go();
    return "taken";
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    const { data } = await db().entities.outboxEvent.get(key).go();
    return data ? "busy" : "gone";
  }
}

/** The handler run under the lease; a failure is counted and logged, and thrown (the item stays leased). */
async function handle(handler: Handler<never>, event: OutboxEvent, held: unknown): Promise<void> {
  try {
    await handler(event.payload as never, { event_id: event.event_id, held });
  } catch (error) {
    outboxUndeliveredMetric({ type: event.type, reason: "handler_failed" });
    log.error("outbox event not delivered", {
      event_id: event.event_id,
      type: event.type,
      error: (error as Error).message,
    });
    throw error;
  }
}

/** The delivered event's item deleted (only once its handler has run: at least once, never less). */
async function removeDelivered(event: OutboxEvent): Promise<void> {
  await db().entities.outboxEvent.delete({ shard: event.shard, event_id: event.event_id }).go();
}

/**
 * Work a request leaves to finish before it answers: the deletes of the outbox items its change
 * delivered inline, sent beside the request's own remaining work (the answer's reads) instead of
 * before it. `settledBeforeAnswer` wraps a request (the API's request middleware): it returns once
 * everything left here has ended, so the response still follows the deletes, and nothing is left
 * running in a Lambda that freezes after answering.
 */
const settling = new AsyncLocalStorage<Promise<unknown>[]>();

export async function settledBeforeAnswer<T>(fn: () => Promise<T>): Promise<T> {
  const left: Promise<unknown>[] = [];
  try {
    return await settling.run(left, fn);
  } finally {
    for (let i = 0; i < left.length; i++) await left[i];
  }
}

/**
 * Right after the writer's transaction committed: delivers its events in this process, side by
 * side (one transaction's events have independent handlers: a subscription's activity, its
 * receipt). Each runs its handler, under the lease its item was written with (`inline`; an event
 * written otherwise takes its lease first); once every handler has ended, the items
 * delivered are deleted together, beside the caller's remaining work inside a request
 * (`settledBeforeAnswer`), awaited here otherwise (a job). A failure is logged and left to the
 * stream and the drain; it never fails the change, which is done (a delete that fails leaves the
 * item leased: the drain delivers it again once the lease expires, and the handler is idempotent).
 * The race point lets a test end the process here ("a Lambda died after the commit").
 */
export async function deliverCommitted(...events: (OutboxEvent & { held?: unknown })[]): Promise<void> {
  const handled: OutboxEvent[] = [];
  const done = await Promise.allSettled(
    events.map(async ({ held, ...event }) => {
      await racePoint("outbox:committed", event.type);
      try {
        const handler = subscriberOf(event);
        // Written leased to this writer (`inline`): no other delivery runs it before that lease expires.
        if (!event.inline && (await takeLease(event, new Date())) !== "taken") return;
        await handle(handler, event, held);
        handled.push(event);
      } catch {
        // Logged and counted by the delivery; the item stays for the stream and the drain.
      }
    }),
  );
  if (handled.length) {
    const removal = Promise.all(handled.map(removeDelivered)).catch((error: Error) => {
      // Left leased: the drain delivers it again once the lease expires (the handler is idempotent).
      log.error("outbox event delivered but not removed", {
        event_ids: handled.map((event) => event.event_id),
        error: error.message,
      });
    });
    const request = settling.getStore();
    if (request) request.push(removal);
    else await removal;
  }
  // Only a race point throws here (a test's crash), once every other delivery has ended.
  const crashed = done.find((result) => result.status === "rejected");
  if (crashed) throw crashed.reason;
}

/**
 * The `outbox` job: delivers every event still in the outbox whose lease (if any) expired, shard by
 * shard, oldest first. Its summary: `delivered`, `busy` (a delivery in progress elsewhere, or a
 * writer's lease from its commit not yet expired), `undelivered` (no subscriber, or the handler
 * failed: alarmed through `OutboxUndelivered`). `now` is real time (leases are machinery, not the
 * business clock the job runs for); a test passes a later one to be past a lease.
 */
export async function drainOutbox(now = new Date()): Promise<Record<string, number>> {
  const summary = { delivered: 0, busy: 0, undelivered: 0 };
  for (let shard = 0; shard < WORK_SHARDS; shard++) {
    let cursor: string | null = null;
    do {
      const page: { data: { lease_until?: string }[]; cursor: string | null } = await db()
        .entities.outboxEvent.query.primary({ shard })
        .go({ cursor, limit: 100, attributes: ["shard", "event_id", "type", "payload", "lease_until"] });
      // A type this code does not know is delivered too: it fails closed (no subscriber).
      for (const item of page.data as (OutboxEvent & { lease_until?: string })[]) {
        if (leased(item, now)) {
          summary.busy += 1;
          continue;
        }
        try {
          const result = await deliverOutboxEvent(item, now);
          if (result === "delivered") summary.delivered += 1;
          else if (result === "busy") summary.busy += 1;
        } catch {
          summary.undelivered += 1;
        }
      }
      cursor = page.cursor;
    } while (cursor);
  }
  return summary;
}

/**
 * Delivers the event stored under these keys (the table's stream names the item it inserted): read
 * again, so a record redelivered after its event was delivered finds it "gone", and one whose item
 * is leased (its writer delivering it inline) "busy" without trying the lease.
 */
export async function deliverStoredOutboxEvent(key: { shard: number; event_id: string }): Promise<Delivery> {
  const now = new Date();
  const { data } = await db().entities.outboxEvent.get(key).go({ consistent: true });
  if (!data) return "gone";
  if (leased(data, now)) return "busy";
  return deliverOutboxEvent(data as OutboxEvent, now);
}
