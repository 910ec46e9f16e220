/**
 * The charge queue: claimed payments waiting for their provider call. Claiming (the billing run,
 * retries, recovery) is separate from charging, so a large organisation's day does not have to
 * fit one job run:
 *  - in AWS an SQS queue (`CHARGE_QUEUE_URL`) whose consumer Lambda charges with bounded
 *    concurrency (infra/queue.ts: reserved concurrency, dead-letter queue, alarm);
 *  - locally (and in tests) the same consumer function runs in-process with the same bound.
 * Messages carry ids (and a non-secret snapshot to save a read); the consumer re-checks the
 * payment's state, and every provider call carries the payment's idempotency key, so a message
 * delivered twice charges once.
 */
import { config } from "../config";
import { log, logContext, withLogContext } from "../log";
import type { PaymentTypeRecord } from "../payment-type/present";
import { awsClient } from "../providers/aws";
import type { PaymentRecord } from "./store";

export interface ChargeMessage {
  organisation_id: string;
  payment_id: string;
  /** The payment as claimed (saves the consumer a read; re-read if stale). */
  snapshot?: PaymentRecord;
  paymentType?: PaymentTypeRecord | null;
  /** The request or job run that sent it: the consumer's log lines carry the same id. */
  request_id?: string;
}

/** Stamps messages with the sender's request id (the log context), so the charge's lines share it. */
export function withRequestId(messages: ChargeMessage[]): ChargeMessage[] {
  const { request_id } = logContext();
  return request_id ? messages.map((m) => ({ request_id, ...m })) : messages;
}

/** Runs a message's handling with its request id, organisation and payment on every log line. */
export function inChargeContext<T>(message: ChargeMessage, fn: () => T): T {
  return withLogContext(
    {
      request_id: message.request_id,
      organisation_id: message.organisation_id,
      payment_id: message.payment_id,
    },
    fn,
  );
}

export type ChargeConsumer = (message: ChargeMessage) => Promise<unknown>;

export interface ChargeQueue {
  readonly kind: "local" | "sqs";
  send(messages: ChargeMessage[]): Promise<void>;
  /** Local: resolves when every message sent so far has been handled. SQS: at once. */
  drain(): Promise<void>;
}

/** Charges at once per process (locally) or per consumer Lambda (AWS reserved concurrency). */
export const CHARGE_CONCURRENCY = Number(process.env.CHARGE_CONCURRENCY ?? 8);

let consumer: ChargeConsumer | undefined;
/** charge.ts registers the consumer (kept as a registration so the queue does not import charging). */
export function setChargeConsumer(fn: ChargeConsumer) {
  consumer = fn;
}

/** In-process queue with a concurrency bound, the local stand-in for SQS + the consumer Lambda. */
export function localChargeQueue(concurrency = CHARGE_CONCURRENCY): ChargeQueue {
  const waiting: ChargeMessage[] = [];
  let active = 0;
  let idle: (() => void)[] = [];
  const pump = () => {
    while (active < concurrency && waiting.length) {
      const message = waiting.shift()!;
      active += 1;
      const run = inChargeContext(message, () =>
        consumer ? consumer(message) : Promise.reject(new Error("no charge consumer registered")),
      );
      run
        .catch((error) =>
          log.error("charge failed", { payment_id: message.payment_id, error: (error as Error).message }),
        )
        .finally(() => {
          active -= 1;
          pump();
        });
    }
    if (active === 0 && waiting.length === 0) {
      const done = idle;
      idle = [];
      for (const resolve of done) resolve();
    }
  };
  return {
    kind: "local",
    async send(messages) {
      waiting.push(...withRequestId(messages));
      pump();
    },
    drain() {
      if (active === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}

/** SQS `SendMessageBatch` (JSON protocol) as signed HTTPS calls, ten messages per call. */
export function sqsChargeQueue(queueUrl: string): ChargeQueue {
  const { region, client } = awsClient("sqs");
  const endpoint = `https://sqs.${region}.amazonaws.com/`;
  return {
    kind: "sqs",
    async send(messages) {
      for (let i = 0; i < messages.length; i += 10) {
        const batch = messages.slice(i, i + 10);
        const response = await client.fetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/x-amz-json-1.0",
            "x-amz-target": "AmazonSQS.SendMessageBatch",
          },
          body: JSON.stringify({
            QueueUrl: queueUrl,
            Entries: withRequestId(batch).map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m) })),
          }),
        });
        const answer = (await response.json().catch(() => ({}))) as { Failed?: unknown[] };
        if (!response.ok || answer.Failed?.length) {
          // The payments stay claimed: the polling job re-drives claimed payments never charged.
          throw new Error(
            `SQS SendMessageBatch failed (${response.status}, ${answer.Failed?.length ?? 0} failed)`,
          );
        }
      }
    },
    async drain() {},
  };
}

let queue: ChargeQueue | undefined;

/** The process's charge queue: SQS when `CHARGE_QUEUE_URL` is set (AWS), else in-process. */
export function chargeQueue(): ChargeQueue {
  if (!queue) {
    const url = config.optional("CHARGE_QUEUE_URL");
    queue = url && !config.isLocal ? sqsChargeQueue(url) : localChargeQueue();
  }
  return queue;
}

export function setChargeQueue(next: ChargeQueue | undefined) {
  queue = next;
}
