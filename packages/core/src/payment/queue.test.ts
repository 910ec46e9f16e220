import { describe, expect, it } from "vitest";
import { logContext, withLogContext } from "../log";
import { type ChargeMessage, localChargeQueue, setChargeConsumer, withRequestId } from "./queue";

/** The request id travels with a charge: the charge's log lines carry the id of the run that claimed it. */
describe("the charge queue's log context", () => {
  it("stamps each message with the sender's request id, and keeps one a message already has", () => {
    const messages: ChargeMessage[] = [
      { organisation_id: "org-1", payment_id: "pay-1" },
      { organisation_id: "org-1", payment_id: "pay-2", request_id: "earlier" },
    ];
    expect(withRequestId(messages)).toEqual(messages);
    withLogContext({ request_id: "run-1" }, () =>
      expect(withRequestId(messages).map((m) => m.request_id)).toEqual(["run-1", "earlier"]),
    );
  });

  it("runs each charge with the message's request id, organisation and payment on every log line", async () => {
    const seen: Record<string, unknown>[] = [];
    setChargeConsumer(async () => {
      await Promise.resolve();
      seen.push({ ...logContext() });
    });
    const queue = localChargeQueue(2);
    await withLogContext({ request_id: "run-1", job: "billing-run" }, () =>
      queue.send([
        { organisation_id: "org-1", payment_id: "pay-1" },
        { organisation_id: "org-2", payment_id: "pay-2" },
      ]),
    );
    await queue.drain();
    expect(seen).toEqual([
      { request_id: "run-1", job: "billing-run", organisation_id: "org-1", payment_id: "pay-1" },
      { request_id: "run-1", job: "billing-run", organisation_id: "org-2", payment_id: "pay-2" },
    ]);
  });
});
