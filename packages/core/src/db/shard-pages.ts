/**
 * Reading a sharded work index (db/shards.ts) whole: every shard's partition named in one PartiQL
 * statement (`IN` on the index's partition key, which DynamoDB answers by reading each named
 * partition, not by a scan), so a job run with nothing due costs one request, not one per shard
 * (issue 36: the jobs' fixed cost was WORK_SHARDS queries a run). Pages follow DynamoDB's
 * NextToken; items come partition by partition, each in its sort key's order.
 */
import { ExecuteStatementCommand } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { dynamo } from "./client";
import { WORK_SHARDS } from "./shards";

export async function* shardPages(input: {
  /** The index (`gsi1`, `gsi2`, `gsi3`); its keys are `<index>pk` and `<index>sk`. */
  index: string;
  /** The work family: partitions `<family>#0` to `<family>#<WORK_SHARDS - 1>`. */
  family: string;
  /** Only items whose sort key is at most this. */
  sortAtMost?: string;
  /** Only items whose attribute has this value (a filter: read, then left out). */
  where?: { attribute: string; value: string };
  limit?: number;
}): AsyncGenerator<Record<string, unknown>[]> {
  const keys = Array.from({ length: WORK_SHARDS }, (_, shard) => `${input.family}#${shard}`);
  const conditions = [`"${input.index}pk" IN [${keys.map(() => "?").join(", ")}]`];
  const parameters: string[] = [...keys];
  if (input.sortAtMost !== undefined) {
    conditions.push(`"${input.index}sk" <= ?`);
    parameters.push(input.sortAtMost);
  }
  if (input.where) {
    conditions.push(`"${input.where.attribute}" = ?`);
    parameters.push(input.where.value);
  }
  const statement = `SELECT * FROM "${config.tableName}"."${input.index}" WHERE ${conditions.join(" AND ")}`;
  let next: string | undefined;
  do {
    const answer = await dynamo().send(
      new ExecuteStatementCommand({
        Statement: statement,
        Parameters: parameters,
        Limit: input.limit ?? 100,
        NextToken: next,
      }),
    );
    next = answer.NextToken;
    if (answer.Items?.length) yield answer.Items as Record<string, unknown>[];
  } while (next);
}
