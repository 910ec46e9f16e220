/**
 * DynamoDB Local answers a Query whose key condition is `begins_with(sk, prefix)` by reading the
 * whole partition and testing each item (30–140 ms on an organisation's partition of a
 * 10,000-member gym, where AWS reads only the matching range), while `sk BETWEEN a AND b` reads
 * only the range (5–8 ms). ElectroDB writes `begins_with` for every partial sort key (an
 * organisation's gyms, a member's payment types, doors …), so against DynamoDB Local each of those
 * reads cost as much as a scan and the load bench measured the engine, not the API
 * (docs/performance.md "Load").
 *
 * Against DynamoDB Local only (a configured endpoint), the key condition `begins_with(k, :p)` is
 * sent as `k BETWEEN :p AND :p_end`, the same items in the same order: every key starting with p
 * sorts (by UTF-8 bytes, as DynamoDB compares) from p up to p followed by the highest code point
 * repeated to the key size limit. In AWS the Query is sent as written.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** DynamoDB's limit on a sort key's size, in bytes. */
const SORT_KEY_BYTES = 1024;
const HIGHEST = String.fromCodePoint(0x10ffff);

/** The highest string of at most SORT_KEY_BYTES that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  const room = SORT_KEY_BYTES - Buffer.byteLength(prefix, "utf8");
  return prefix + HIGHEST.repeat(Math.max(1, Math.floor(room / 4)));
}

const BEGINS_WITH = /begins_with\(\s*(#[A-Za-z0-9_]+)\s*,\s*(:[A-Za-z0-9_]+)\s*\)/;

/** The Query input with a key condition `begins_with` as `BETWEEN`; other inputs unchanged. */
export function rangedKeyCondition<T extends Record<string, unknown>>(input: T): T {
  const condition = input.KeyConditionExpression;
  if (typeof condition !== "string") return input;
  const match = BEGINS_WITH.exec(condition);
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  const prefix = match && values ? values[match[2]] : undefined;
  if (!match || typeof prefix !== "string") return input;
  const end = `${match[2]}_end`;
  return {
    ...input,
    KeyConditionExpression: condition.replace(BEGINS_WITH, `${match[1]} BETWEEN ${match[2]} AND ${end}`),
    ExpressionAttributeValues: { ...values, [end]: prefixEnd(prefix) },
  };
}

/** Sends key conditions as ranges (above): for a client of DynamoDB Local only. */
export function rangeKeyConditions(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next) => async (args) =>
      next({ ...args, input: rangedKeyCondition(args.input as Record<string, unknown>) }),
    { step: "initialize", name: "localRangedKeyConditions" },
  );
}
