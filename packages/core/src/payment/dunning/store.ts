/** Keys and queries of dunning's sparse indexes (entity.ts `dunningEntity`). */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { EntityItem } from "electrodb";
import type { CivilDate } from "../../billing/calendar";
import { config } from "../../config";
import { dynamo } from "../../db/client";
import { db } from "../../db/service";
import { shardOf, WORK_SHARDS } from "../../db/shards";
import type { dunningEntity } from "./entity";

export type DunningRecord = EntityItem<typeof dunningEntity>;

export const dunningKeys = {
  grace: (subscriptionId: string, graceEndsAt: string) => ({
    grace_key: `grace#${shardOf(subscriptionId)}`,
    grace_sort: `${graceEndsAt}#${subscriptionId}`,
  }),
  retry: (subscriptionId: string, on: CivilDate) => ({
    retry_key: `retry#${shardOf(subscriptionId)}`,
    retry_sort: `${on}#${subscriptionId}`,
  }),
};

/** Every dunning item whose grace end (ISO) or retry date (civil) is at or before `upTo`, paged by shard. */
export async function* dunningPages(kind: "grace" | "retry", upTo: string): AsyncGenerator<DunningRecord[]> {
  const index = kind === "grace" ? "gsi1" : "gsi2";
  for (let shard = 0; shard < WORK_SHARDS; shard++) {
    let cursor: Record<string, unknown> | undefined;
    do {
      const answer = await dynamo().send(
        new QueryCommand({
          TableName: config.tableName,
          IndexName: index,
          KeyConditionExpression: "#k = :k AND #s <= :s",
          ExpressionAttributeNames: { "#k": `${index}pk`, "#s": `${index}sk` },
          ExpressionAttributeValues: { ":k": `${kind}#${shard}`, ":s": `${upTo}~` },
          Limit: 100,
          ExclusiveStartKey: cursor,
        }),
      );
      cursor = answer.LastEvaluatedKey;
      const parsed = db().entities.dunning.parse({ Items: answer.Items ?? [] });
      if (parsed.data.length) yield parsed.data as DunningRecord[];
    } while (cursor);
  }
}
