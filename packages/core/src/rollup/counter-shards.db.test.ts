/**
 * Counters off the money path (issue 39 item 2; docs/data-model.md "Rollups"): a transaction adds
 * to one of COUNTER_SHARDS shard rows, so the transactions in flight together do not write the same
 * counter item, and a conflict met on a counter row is retried on another shard, counted once.
 */
import { describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { newId } from "../ids";
import { COUNTER_SHARDS, sumShards } from "./entity";
import { type RollupChange, type RollupTx, rollupItems, writeCounted } from "./writes";

useTestApi();

const DAY = "2026-11-27";
const changeOf = (organisationId: string, gymId: string, delta: RollupChange["delta"]): RollupChange => ({
  subject: { organisation_id: organisationId, gym_id: gymId, offering_id: "off1" },
  day: DAY,
  delta,
});

/** The counter rows (scope, day, dim, shard) one transaction's items write. */
function rowsWritten(change: RollupChange): Set<string> {
  const keys = new Set<string>();
  const update = (key: Record<string, unknown>) => {
    keys.add(JSON.stringify(key));
    const chain = { add: () => chain, set: () => chain, where: () => chain, commit: () => ({}) };
    return chain;
  };
  rollupItems({ rollup: { update }, memberMonth: { update } } as unknown as RollupTx, change);
  return keys;
}

describe("counter shards", () => {
  it("the claims a billing run has in flight together (16) write no counter row in common", () => {
    const organisationId = newId();
    const gymId = newId();
    const written = Array.from({ length: COUNTER_SHARDS }, () =>
      rowsWritten(changeOf(organisationId, gymId, { expected: 2400, expected_count: 1 })),
    );
    for (let i = 0; i < written.length; i++)
      for (let j = i + 1; j < written.length; j++) {
        const shared = [...written[i]].filter((k) => written[j].has(k));
        expect(shared, `claims ${i} and ${j}`).toEqual([]);
      }
  });

  it("a transaction conflict on a counter row is retried on another shard and counted once", async () => {
    const organisationId = newId();
    const gymId = newId();
    const shardsTried: string[] = [];
    let injected = 0;
    const client = dynamo();
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const name = (context as { commandName?: string }).commandName;
        const input = args.input as { TransactItems?: { Update?: { Key?: { pk?: string; sk?: string } } }[] };
        const items = input.TransactItems ?? [];
        const counter = items.findIndex((i) => i.Update?.Key?.pk?.includes(organisationId.toLowerCase()));
        if (/TransactWrite/.test(name ?? "") && counter >= 0) {
          shardsTried.push(/shard_(\d+)/.exec(items[counter].Update?.Key?.sk ?? "")?.[1] ?? "none");
          if (injected === 0) {
            injected += 1;
            // What DynamoDB answers when another transaction holds the item.
            throw Object.assign(new Error("Transaction cancelled: TransactionConflict"), {
              name: "TransactionCanceledException",
              CancellationReasons: items.map((_, i) => ({
                Code: i === counter ? "TransactionConflict" : "None",
              })),
            });
          }
        }
        return next(args);
      },
      { step: "initialize", name: "injectCounterConflict" },
    );
    try {
      const change = changeOf(organisationId, gymId, { joined: 1 });
      const result = await writeCounted([change], (items) =>
        db()
          .transaction.write((tx) => items(tx as unknown as RollupTx))
          .go(),
      );
      expect(result.canceled).toBe(false);
      expect(injected).toBe(1);
      expect(shardsTried).toHaveLength(2);
      expect(shardsTried[0]).not.toBe(shardsTried[1]);
    } finally {
      client.middlewareStack.remove("injectCounterConflict");
    }
    for (const scope of [gymId, "_organisation"]) {
      const { data } = await db()
        .entities.rollup.query.primary({ organisation_id: organisationId, scope })
        .go({ pages: "all" });
      const rows = sumShards(data);
      expect(rows.find((r) => r.day === DAY && r.dim === "all")?.joined, scope).toBe(1);
      expect(rows.find((r) => r.day === "total" && r.dim === "all")?.joined, scope).toBe(1);
    }
  });
});
