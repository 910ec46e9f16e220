/**
 * Items of different entities read in one BatchGetItem (ElectroDB batches one entity at a time).
 * Each request names its entity and key; the answer is each item parsed by its entity, or null
 * when absent, in the order asked. Keys DynamoDB leaves unprocessed are asked again.
 */
import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import { dynamo } from "./client";

/** What an ElectroDB entity offers here (structurally: `db().entities.x`). */
interface Gettable {
  get(key: Record<string, unknown>): { params(): { Key: Record<string, unknown>; TableName?: string } };
  parse(input: { Item: Record<string, unknown> }): { data: unknown };
}

export interface GetRequest {
  entity: unknown;
  key: Record<string, unknown>;
}

const keyId = (key: Record<string, unknown>) => `${String(key.pk)}\u0000${String(key.sk)}`;

export async function getMany(
  requests: GetRequest[],
  /** `consistent`: every key read strongly consistent (a claim checked before a write). */
  options: { consistent?: boolean } = {},
): Promise<unknown[]> {
  if (!requests.length) return [];
  // A BatchGetItem reads at most 100 keys: more are read in batches of 100, side by side (one round).
  if (requests.length > 100) {
    const batches = Array.from({ length: Math.ceil(requests.length / 100) }, (_, i) =>
      requests.slice(i * 100, i * 100 + 100),
    );
    return (await Promise.all(batches.map((batch) => getMany(batch, options)))).flat();
  }
  const asked = requests.map((r) => (r.entity as Gettable).get(r.key).params());
  const table = asked[0].TableName;
  if (!table || asked.some((a) => a.TableName !== table)) throw new Error("getMany reads one table");
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(asked.map((a) => [keyId(a.Key), a.Key])).values()];
  let keys: Record<string, unknown>[] = unique;
  for (let round = 0; keys.length && round < 8; round++) {
    if (round) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
    const answer = await dynamo().send(
      new BatchGetCommand({
        RequestItems: { [table]: { Keys: keys, ...(options.consistent ? { ConsistentRead: true } : {}) } },
      }),
    );
    for (const item of answer.Responses?.[table] ?? []) found.set(keyId(item), item);
    keys = (answer.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
  }
  if (keys.length) throw new Error("getMany: keys left unprocessed");
  return requests.map((r, i) => {
    const item = found.get(keyId(asked[i].Key));
    return item ? ((r.entity as Gettable).parse({ Item: item }).data ?? null) : null;
  });
}
