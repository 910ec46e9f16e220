import { createCore, productionProviders } from "@gym/core/core";
import { log } from "@gym/core/log";
import { chargeClaimed } from "@gym/core/payment/charge";
import { type ChargeMessage, inChargeContext } from "@gym/core/payment/queue";
import { loadSecrets } from "../aws/secrets";

// The start-up point: the real providers and every reaction, before the first message.
createCore({ providers: productionProviders() });

interface SqsEvent {
  Records: { messageId: string; body: string }[];
}

/**
 * The charge queue's consumer: each message names one claimed payment; the charge carries the
 * payment's idempotency key, so a redelivered message charges once. A message whose handling
 * throws is reported as a batch item failure: SQS redelivers it, and after `maxReceiveCount`
 * tries it goes to the dead-letter queue (alarmed). A charge the provider declined is not a
 * failure here: it is recorded on the payment.
 */
export async function handler(event: SqsEvent) {
  await loadSecrets();
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      const message = JSON.parse(record.body) as ChargeMessage;
      // The sender's request id, the organisation and the payment on every line of this charge.
      await inChargeContext(message, async () => {
        const result = await chargeClaimed(message);
        log.info("charge handled", { result });
      });
    } catch (error) {
      log.error("charge message failed", { message_id: record.messageId, error: (error as Error).message });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
