/**
 * Which subscriptions' ledger records the walk wrote since the last look, for the simulation's daily
 * ledger check (docs/simulation.md "What it checks"). The check is a pure function of a subscription
 * and its payments (payment/ledger-check.ts `ledgerBreaks`, no clock), so a subscription none of
 * whose records was written since its last check gives the same answer again: on most days the
 * check reads only the subscriptions written, not every payment of the organisation (a read that
 * grows with every day of the run).
 *
 * Fed by a middleware on the app's DynamoDB client that sees every write's item or key. A payment
 * or subscription key it cannot place (one whose creation it did not see: an upsert) makes the next
 * look ask for the whole organisation's check.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

type Attributes = Record<string, unknown>;

export interface LedgerWrites {
  /** The subscriptions written since the last call, and whether a write could not be placed. */
  take(): { subscriptionIds: string[]; unplaced: boolean };
}

/** ElectroDB writes ids lower-cased into keys; items keep them as given. */
const keyed = (id: string) => id.toLowerCase();

/** The tracker fed by a middleware on the app's DynamoDB client (every request's command and input). */
export function trackLedgerWrites(client: DynamoDBDocumentClient): LedgerWrites {
  const tracker = ledgerWriteTracker();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      tracker.note((context as { commandName?: string }).commandName ?? "", args.input as WriteInput);
      return next(args);
    },
    { step: "initialize", name: "simulationLedgerWrites" },
  );
  return tracker;
}

type WriteInput = {
  Item?: Attributes;
  Key?: Attributes;
  UpdateExpression?: string;
  TransactItems?: {
    Put?: { Item: Attributes };
    Update?: { Key: Attributes };
    Delete?: { Key: Attributes };
  }[];
  RequestItems?: Record<string, { PutRequest?: { Item: Attributes }; DeleteRequest?: { Key: Attributes } }[]>;
};

/** What one request wrote (`note`), and the subscriptions written since the last `take`. */
export function ledgerWriteTracker(): LedgerWrites & { note(command: string, input: WriteInput): void } {
  /** A payment's id as in its key → its subscription (null: a payment of none, e.g. a desk sale). */
  const subscriptionOfPayment = new Map<string, string | null>();
  /** A subscription's id as in its key → its id. */
  const subscriptionIds = new Map<string, string>();
  let touched = new Set<string>();
  let unplaced = false;

  const item = (written: Attributes) => {
    const subscriptionId = typeof written.subscription_id === "string" ? written.subscription_id : null;
    if (written.__edb_e__ === "payment" && typeof written.payment_id === "string") {
      subscriptionOfPayment.set(keyed(written.payment_id), subscriptionId);
      if (subscriptionId) touched.add(subscriptionId);
    } else if (written.__edb_e__ === "subscription" && subscriptionId) {
      subscriptionIds.set(keyed(subscriptionId), subscriptionId);
      touched.add(subscriptionId);
    }
  };
  const key = (written: Attributes) => {
    const pk = String(written.pk ?? "");
    const sk = String(written.sk ?? "");
    if (sk === "$payment_1") {
      const id = /#payment_id_([^#]+)$/.exec(pk)?.[1];
      const subscriptionId = id === undefined ? undefined : subscriptionOfPayment.get(id);
      if (subscriptionId) touched.add(subscriptionId);
      else if (subscriptionId === undefined) unplaced = true;
    } else if (sk.startsWith("$subscription_1#subscription_id_")) {
      const subscriptionId = subscriptionIds.get(sk.slice("$subscription_1#subscription_id_".length));
      if (subscriptionId) touched.add(subscriptionId);
      else unplaced = true;
    }
  };

  const note = (command: string, input: WriteInput) => {
    // A write's item or key (a GetItem names a Key too, to read).
    if (input.Item) item(input.Item);
    if (input.Key && (input.UpdateExpression !== undefined || /^Delete/.test(command))) key(input.Key);
    for (const one of input.TransactItems ?? []) {
      if (one.Put) item(one.Put.Item);
      if (one.Update) key(one.Update.Key);
      if (one.Delete) key(one.Delete.Key);
    }
    if (/^BatchWrite/.test(command))
      for (const requests of Object.values(input.RequestItems ?? {}))
        if (Array.isArray(requests))
          for (const request of requests) {
            if (request.PutRequest) item(request.PutRequest.Item);
            if (request.DeleteRequest) key(request.DeleteRequest.Key);
          }
  };

  return {
    note,
    take() {
      const taken = { subscriptionIds: [...touched], unplaced };
      touched = new Set();
      unplaced = false;
      return taken;
    },
  };
}
