import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { config } from "../config";
import { dynamo } from "./client";

/** A single key lookup on the table: proves the table exists and answers. */
export async function checkDatabase(): Promise<{ reachable: boolean; latency_ms: number }> {
  const started = performance.now();
  try {
    await dynamo().send(new GetCommand({ TableName: config.tableName, Key: { pk: "health", sk: "health" } }));
    return { reachable: true, latency_ms: Math.round(performance.now() - started) };
  } catch {
    return { reachable: false, latency_ms: Math.round(performance.now() - started) };
  }
}
