/**
 * Transaction conflicts on demand (issue 39): DynamoDB cancels, and does not queue, a transaction
 * that touches an item another transaction is writing at that moment (a `TransactionConflict` in
 * the cancellation reasons). DynamoDB Local answers one request at a time, so it almost never shows
 * one. This wraps the core's one DynamoDB client (db/client.ts `dynamo()`, which every ElectroDB
 * call goes through) so that a `TransactWriteItems` touching a chosen item is answered as AWS
 * answers a conflict: `TransactionCanceledException`, `TransactionConflict` at that item's place
 * and `None` elsewhere; nothing of the transaction is written. Test support only: core never
 * imports it.
 */
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { dynamo } from "../../packages/core/src/db/client";

/** One item of a TransactWriteItems request, by its key (`pk`, `sk`). */
export interface WrittenItem {
  kind: "Put" | "Update" | "Delete" | "ConditionCheck";
  pk: string;
  sk: string;
}

/** Items of an entity (its ElectroDB sort key starts `$<entity>_<version>#`), optionally whose key holds `id`. */
export function itemOf(entity: string, id?: string) {
  const prefix = `$${entity.toLowerCase()}_`;
  return (item: WrittenItem) =>
    item.sk.startsWith(prefix) && (id === undefined || `${item.pk}${item.sk}`.includes(id.toLowerCase()));
}

export interface InjectedConflicts {
  /** How many transactions were cancelled so far. */
  readonly injected: number;
  /** When each cancelled transaction was sent (ms, performance.now()). */
  readonly at: readonly number[];
  /** Stops injecting (also done by `restoreTransactions`). */
  restore(): void;
}

const NAME = "testTransactionConflicts";
let active: { restore(): void } | undefined;

/**
 * The next `times` transactions that write an item `target` picks are cancelled with a
 * `TransactionConflict` on it (default 1; `Infinity` until restored).
 */
export function injectTransactionConflicts(
  target: (item: WrittenItem) => boolean,
  options: { times?: number } = {},
): InjectedConflicts {
  restoreTransactions();
  const client = dynamo();
  let left = options.times ?? 1;
  const at: number[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      type Entry = Record<string, { Key?: Record<string, string>; Item?: Record<string, string> }>;
      const items = (args.input as { TransactItems?: Entry[] }).TransactItems;
      // A TransactWriteItems request (a TransactGetItems one holds `Get` entries).
      if (left <= 0 || !items?.length || "Get" in items[0]) return next(args);
      const written = items.map((entry) => {
        const kind = Object.keys(entry)[0] as WrittenItem["kind"];
        const key = entry[kind].Key ?? entry[kind].Item ?? {};
        return { kind, pk: String(key.pk ?? ""), sk: String(key.sk ?? "") };
      });
      const hit = written.findIndex(target);
      if (hit < 0) return next(args);
      left -= 1;
      at.push(performance.now());
      throw new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${written
          .map((_, i) => (i === hit ? "TransactionConflict" : "None"))
          .join(", ")}]`,
        $metadata: {},
        CancellationReasons: written.map((_, i) =>
          i === hit
            ? { Code: "TransactionConflict", Message: "Transaction is ongoing for the item" }
            : { Code: "None" },
        ),
      });
    },
    { step: "initialize", name: NAME },
  );
  const handle = {
    get injected() {
      return at.length;
    },
    at,
    restore() {
      client.middlewareStack.remove(NAME);
      if (active === handle) active = undefined;
    },
  };
  active = handle;
  return handle;
}

/** Stops any injection (afterEach). */
export function restoreTransactions(): void {
  active?.restore();
}
