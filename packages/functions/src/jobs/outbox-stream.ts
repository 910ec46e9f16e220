import { createCore, productionProviders } from "@gym/core/core";
import { log } from "@gym/core/log";
import { deliverStoredOutboxEvent } from "@gym/core/outbox/outbox";
import { loadSecrets } from "../aws/secrets";

// The start-up point: the real providers and every reaction (the outbox's subscribers) first.
createCore({ providers: productionProviders() });

/** The part of a DynamoDB stream record read here (only the outbox's INSERTs reach it: infra/jobs.ts filters). */
interface StreamEvent {
  Records: {
    eventID: string;
    dynamodb?: { SequenceNumber?: string; NewImage?: { shard?: { N?: string }; event_id?: { S?: string } } };
  }[];
}

/**
 * The outbox's stream consumer (docs/data-model.md "The outbox"): each new outbox item is
 * delivered within seconds of its commit. Usually the writer delivered it already and the item is
 * gone or leased, which is fine. A record whose delivery throws (no subscriber, a failed handler) is
 * a batch item failure: the stream retries it a few times; after that the `outbox` job drains the
 * item, which stays until delivered.
 */
export async function handler(event: StreamEvent) {
  await loadSecrets();
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const shard = Number(image?.shard?.N);
    const event_id = image?.event_id?.S;
    if (!event_id || !Number.isInteger(shard)) continue;
    try {
      await deliverStoredOutboxEvent({ shard, event_id });
    } catch (error) {
      log.error("outbox stream record failed", { event_id, error: (error as Error).message });
      batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? record.eventID });
    }
  }
  return { batchItemFailures };
}
