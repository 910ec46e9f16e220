/** What the bench modes share: percentiles of sorted timings, and counting DynamoDB requests. */

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export interface RequestCount {
  requests: number;
  scans: number;
  items: number;
  byCommand: Record<string, number>;
  /**
   * Of `requests`, those that are not the work measured, by what they are: the local runtime's
   * own (the movable business clock, the local mail outbox: SES in AWS, no clock read) and the
   * HTTP front door's per-source rate-limit counter (webhook-limit.ts), which every call pays
   * before its body is read.
   */
  aside: Record<string, number>;
  /** Only requests made while this is true are counted. */
  counting: boolean;
}

/**
 * Counts the requests the app's DynamoDB client sends (by a middleware on it): how many, by
 * command, how many are Scans and how many items they answered.
 */
export async function countDynamoRequests(): Promise<RequestCount> {
  const { dynamo: client } = await import("../../packages/core/src/db/client");
  const count: RequestCount = { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true };
  client().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (count.counting) {
        const name = (context as { commandName?: string }).commandName ?? "unknown";
        count.requests += 1;
        count.byCommand[name] = (count.byCommand[name] ?? 0) + 1;
        const aside = asideOf(args.input as Record<string, unknown>);
        if (aside) count.aside[aside] = (count.aside[aside] ?? 0) + 1;
        if (/Scan/.test(name)) count.scans += 1;
        const out = result.output as {
          Items?: unknown[];
          Item?: unknown;
          Responses?: Record<string, unknown[]>;
        };
        count.items += out.Items?.length ?? 0;
        if (out.Item) count.items += 1;
        for (const list of Object.values(out.Responses ?? {}))
          count.items += Array.isArray(list) ? list.length : 0;
      }
      return result;
    },
    { step: "initialize", name: "benchRequestCounter" },
  );
  return count;
}

/** Requests that are the local runtime's or the front door's, not the work measured (RequestCount.aside). */
function asideOf(input: Record<string, unknown>): string | null {
  const key = (input.Key ?? {}) as { sk?: unknown };
  const item = (input.Item ?? {}) as { __edb_e__?: unknown };
  if (key.sk === "$throttle_1") return "rate limit (front door)";
  // Read by its key, moved by a PutItem of the whole item (the simulation's walk sets it often).
  if (key.sk === "$business_clock_1" || item.__edb_e__ === "business_clock")
    return "business clock (local only)";
  if (item.__edb_e__ === "mail") return "mail outbox (local only; SES in AWS)";
  return null;
}

/** Whether a request is the local runtime's own (the business clock, the mail outbox): none of it is sent in AWS. */
export const isLocalOnly = (input: Record<string, unknown>) => /local only/.test(asideOf(input) ?? "");

/** Whether a request is the local runtime's or the front door's (asideOf), not the work measured. */
export const isAside = (input: Record<string, unknown>) => asideOf(input) !== null;

/** The requests counted, less those aside. */
export const measured = (count: RequestCount) =>
  count.requests - Object.values(count.aside).reduce((sum, n) => sum + n, 0);
