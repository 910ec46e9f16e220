/**
 * Against DynamoDB Local a key condition `begins_with` is sent as a range (local-engine.ts): the
 * same items in the same order as `begins_with` answers, whatever follows the prefix, both ways
 * and page by page.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { config } from "../config";
import { dynamo } from "./client";
import { rangedKeyCondition } from "./local-engine";

const api = useTestApi();
const PK = "$gym#organisation_id_range";
const PREFIX = "$gym_1#gym_id_";
const sortKeys = [
  "$gym_1#gym_id_",
  "$gym_1#gym_id_a",
  "$gym_1#gym_id_01abc",
  "$gym_1#gym_id_zzz",
  "$gym_1#gym_id_~",
  "$gym_1#gym_id_\u00e9t\u00e9",
  "$gym_1#gym_id_\uffff",
  "$gym_1#gym_id_\u{1F3CB}\u{10FFFF}",
  "$gym_1#gym_id_\u{10FFFF}",
  `$gym_1#gym_id_${"x".repeat(900)}`,
  "$gym_1#gym_i",
  "$gym_1#gym_id",
  "$gym_1#gym_ie",
  "$gym_1#gym_id`",
  "$gym_2#gym_id_a",
  "$gym_0#gym_id_a",
];

/** The same table and endpoint, without the rewrite: what `begins_with` itself answers. */
const plain = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: config.dynamoEndpoint,
      region: config.region,
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    }),
  );

async function all(client: DynamoDBDocumentClient, forward: boolean, limit?: number) {
  const keys: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: "#pk = :pk and begins_with(#sk1, :sk1)",
        ExpressionAttributeNames: { "#pk": "pk", "#sk1": "sk" },
        ExpressionAttributeValues: { ":pk": PK, ":sk1": PREFIX },
        ScanIndexForward: forward,
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    keys.push(...(page.Items ?? []).map((item) => item.sk as string));
    start = page.LastEvaluatedKey;
  } while (start);
  return keys;
}

beforeAll(async () => {
  expect(api.url).toBeTruthy();
  await dynamo().send(
    new BatchWriteCommand({
      RequestItems: {
        [config.tableName]: sortKeys.map((sk) => ({ PutRequest: { Item: { pk: PK, sk, n: 1 } } })),
      },
    }),
  );
});

describe("key conditions against DynamoDB Local", () => {
  it("are sent as a range ending at the highest key that starts with the prefix", () => {
    const input = rangedKeyCondition({
      KeyConditionExpression: "#pk = :pk and begins_with(#sk1, :sk1)",
      ExpressionAttributeValues: { ":pk": PK, ":sk1": PREFIX },
    });
    expect(input.KeyConditionExpression).toBe("#pk = :pk and #sk1 BETWEEN :sk1 AND :sk1_end");
    const end = (input.ExpressionAttributeValues as Record<string, string>)[":sk1_end"];
    expect(end.startsWith(PREFIX)).toBe(true);
    expect(Buffer.byteLength(end)).toBeLessThanOrEqual(1024);
    // A filter's begins_with and a query without one are left as they are.
    const filtered = { KeyConditionExpression: "#pk = :pk", FilterExpression: "begins_with(#a, :a)" };
    expect(rangedKeyCondition(filtered)).toBe(filtered);
  });

  it("answer the items begins_with answers, in its order, both ways and page by page", async () => {
    const expected = await all(plain(), true);
    expect(expected.length).toBe(sortKeys.filter((sk) => sk.startsWith(PREFIX)).length);
    expect(await all(dynamo(), true)).toEqual(expected);
    expect(await all(dynamo(), false)).toEqual(await all(plain(), false));
    expect(await all(dynamo(), true, 3)).toEqual(expected);
    expect(await all(dynamo(), false, 2)).toEqual([...expected].reverse());
  });
});
