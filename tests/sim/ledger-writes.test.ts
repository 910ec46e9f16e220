/**
 * The simulation's write tracker (ledger-writes.ts) places the writes ElectroDB really sends: the
 * keys below are ElectroDB's own (`.params()`), not written by hand, so a change of key format
 * fails here rather than silently leaving a day's changed subscriptions unchecked.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerWriteTracker } from "./ledger-writes";

const organisation_id = "01JORGANISATION0000000000A";
const subscription_id = "01JSUBSCRIPTION0000000000B";
const payment_id = "01JPAYMENT000000000000000C";

type Db = typeof import("../../packages/core/src/db/service")["db"];
let db: Db;

beforeAll(async () => {
  process.env.TABLE_NAME ??= "ledger-writes-test";
  ({ db } = await import("../../packages/core/src/db/service"));
});

/** A payment's item as a PutItem carries it (the attributes the tracker reads). */
const paymentPut = (subscription: string | undefined) => ({
  Item: { __edb_e__: "payment", payment_id, organisation_id, subscription_id: subscription },
});
const paymentPatch = () =>
  db().entities.payment.patch({ organisation_id, payment_id }).set({ status: "sent" }).params() as Record<
    string,
    unknown
  >;
const subscriptionPatch = () =>
  db()
    .entities.subscription.patch({ organisation_id, subscription_id })
    .set({ balance_owing: 0 })
    .params() as Record<string, unknown>;

describe("the simulation's ledger write tracker", () => {
  it("names the subscription of a payment it saw created when that payment is updated, alone or in a transaction", () => {
    const tracker = ledgerWriteTracker();
    tracker.note("PutCommand", paymentPut(subscription_id));
    expect(tracker.take()).toEqual({ subscriptionIds: [subscription_id], unplaced: false });
    tracker.note("UpdateCommand", paymentPatch());
    expect(tracker.take()).toEqual({ subscriptionIds: [subscription_id], unplaced: false });
    tracker.note("TransactWriteCommand", { TransactItems: [{ Update: paymentPatch() as never }] });
    expect(tracker.take()).toEqual({ subscriptionIds: [subscription_id], unplaced: false });
  });

  it("names a subscription it saw created when it is updated", () => {
    const tracker = ledgerWriteTracker();
    tracker.note("PutCommand", { Item: { __edb_e__: "subscription", subscription_id, organisation_id } });
    tracker.take();
    tracker.note("UpdateCommand", subscriptionPatch());
    expect(tracker.take()).toEqual({ subscriptionIds: [subscription_id], unplaced: false });
  });

  it("asks for the whole check when an updated payment or subscription was not seen created", () => {
    const tracker = ledgerWriteTracker();
    tracker.note("UpdateCommand", paymentPatch());
    expect(tracker.take()).toEqual({ subscriptionIds: [], unplaced: true });
    tracker.note("UpdateCommand", subscriptionPatch());
    expect(tracker.take()).toEqual({ subscriptionIds: [], unplaced: true });
  });

  it("leaves out reads and the payments of no subscription", () => {
    const tracker = ledgerWriteTracker();
    tracker.note("PutCommand", paymentPut(undefined));
    tracker.note("UpdateCommand", paymentPatch());
    const { Key } = paymentPatch() as { Key: Record<string, unknown> };
    tracker.note("GetCommand", { Key });
    expect(tracker.take()).toEqual({ subscriptionIds: [], unplaced: false });
  });
});
