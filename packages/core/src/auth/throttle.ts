import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { dynamo } from "../db/client";
import { db } from "../db/service";
import { epochSeconds } from "./tokens";

/**
 * Fixed-window limits, race-free. `takeLimit` is the one primitive every limit uses (sign-in per
 * account and per address, code guesses, code emails, reset emails, connection states, and
 * later registration and unique-email): it counts one attempt in a single conditional
 * UpdateItem (`ADD count 1` only while `count < limit` in a live window) and says whether the
 * attempt may go ahead. Callers do the guarded work (compare a password, send an email) only
 * when it did, so parallel requests cannot all slip past a read-then-write check.
 */
export interface LimitRule {
  /** Attempts allowed in one window. */
  limit: number;
  windowSeconds: number;
}

export type LimitTaken =
  | { ok: true /** This attempt's position in the window, from 1. */; count: number }
  | { ok: false; count: number /** Until the window ends. */; retryAfterSeconds: number };

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error as { name?: string } | undefined)?.name === "ConditionalCheckFailedException";

/** The table key and name of a counter (through the entity, so reads with ElectroDB still see it). */
function keyOf(key: string) {
  const params = db().entities.throttle.get({ key }).params() as {
    Key: Record<string, string>;
    TableName: string;
  };
  return { Key: params.Key, TableName: params.TableName };
}

/**
 * Counts one attempt against `key` when fewer than `rule.limit` were counted in the current
 * window, atomically. A first attempt creates the counter (its window starts now); once the
 * window has passed, exactly one caller restarts it (conditional on the old start).
 */
export async function takeLimit(key: string, rule: LimitRule): Promise<LimitTaken> {
  const target = keyOf(key);
  // A handful of rounds: a round is lost only to another caller restarting a stale window.
  for (let round = 0; round < 5; round++) {
    const now = epochSeconds();
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          ...target,
          UpdateExpression:
            "ADD #count :one SET #key = if_not_exists(#key, :key), #start = if_not_exists(#start, :now), " +
            "#expires = if_not_exists(#expires, :expires), #entity = if_not_exists(#entity, :entity), " +
            "#version = if_not_exists(#version, :version)",
          ConditionExpression: "attribute_not_exists(#count) OR (#start > :cutoff AND #count < :limit)",
          ExpressionAttributeNames: {
            "#count": "count",
            "#key": "key",
            "#start": "window_started_at",
            "#expires": "expires_at",
            "#entity": "__edb_e__",
            "#version": "__edb_v__",
          },
          ExpressionAttributeValues: {
            ":one": 1,
            ":key": key,
            ":now": now,
            ":expires": now + rule.windowSeconds,
            ":entity": "throttle",
            ":version": "1",
            ":cutoff": now - rule.windowSeconds,
            ":limit": rule.limit,
          },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return { ok: true, count: Number(Attributes?.count ?? 1) };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item } = await dynamo().send(new GetCommand({ ...target, ConsistentRead: true }));
    if (!Item) continue;
    const started = Number(Item.window_started_at);
    if (started > now - rule.windowSeconds) {
      return {
        ok: false,
        count: Number(Item.count),
        retryAfterSeconds: Math.max(1, started + rule.windowSeconds - now),
      };
    }
    // The window has passed: start a new one, unless another caller just did.
    try {
      await dynamo().send(
        new UpdateCommand({
          ...target,
          UpdateExpression: "SET #count = :one, #start = :now, #expires = :expires",
          ConditionExpression: "#start = :started",
          ExpressionAttributeNames: {
            "#count": "count",
            "#start": "window_started_at",
            "#expires": "expires_at",
          },
          ExpressionAttributeValues: {
            ":one": 1,
            ":now": now,
            ":expires": now + rule.windowSeconds,
            ":started": started,
          },
        }),
      );
      return { ok: true, count: 1 };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error(`Limit ${key} is too contended`);
}

/** Gives one counted attempt back (it turned out not to be a failure), never below zero. */
export async function returnLimit(key: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        ...keyOf(key),
        UpdateExpression: "ADD #count :minus",
        ConditionExpression: "#count > :zero",
        ExpressionAttributeNames: { "#count": "count" },
        ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Forgets a counter (after a success). */
export async function clearLimit(key: string): Promise<void> {
  await db().entities.throttle.delete({ key }).go();
}
