/**
 * What each documented API operation costs in DynamoDB requests, and in rounds: requests that wait
 * on each other (issue 36). A round starts when a request is sent after an answer to one of the
 * call's requests has come back since the round began: requests sent side by side (Promise.all, a
 * BatchGet) are one round, however fast each is answered, and requests sent one after another are
 * one round each. The local runtime's own requests and the
 * front door's rate-limit counter are left out (measure.ts `asideOf`), as in the other counts.
 *
 * Used by packages/functions/src/api/request-budgets.test.ts (every operation within its budget)
 * and by `npm run bench -- --requests`, which runs that test and prints the table it writes.
 */
import { isAside } from "./measure";

export interface RoundCount {
  requests: number;
  rounds: number;
  byCommand: Record<string, number>;
  /** Requests sent and not yet answered. */
  inFlight: number;
  /** An answer came back since the current round began: the next request starts a round. */
  answered: boolean;
  /** With `REQUEST_BUDGETS_TRACE` set: each request as "round command what", in the order sent. */
  trace?: string[];
}

/** What a request reads or writes, in a few words: its keys' partition values, or its index. */
function described(name: string, input: Record<string, any>): string {
  const keyOf = (key: Record<string, any> | undefined) =>
    key ? Object.values(key).map(String).join("/") : "";
  if (input.TransactItems)
    return `${name} [${input.TransactItems.map((item: Record<string, any>) => {
      const [kind, body] = Object.entries(item)[0] as [string, Record<string, any>];
      return `${kind} ${keyOf(body.Key ?? { pk: body.Item?.pk, sk: body.Item?.sk })}`;
    }).join(", ")}]`;
  if (input.RequestItems)
    return `${name} ${Object.values<any>(input.RequestItems)
      .flatMap((table) =>
        (table.Keys ?? table).map((entry: any) =>
          keyOf(entry.PutRequest ? { pk: entry.PutRequest.Item.pk } : (entry.DeleteRequest?.Key ?? entry)),
        ),
      )
      .join(", ")}`;
  if (input.Statement) return `${name} ${String(input.Statement).slice(0, 80)}`;
  if (input.KeyConditionExpression)
    return `${name} ${input.IndexName ?? "table"} ${JSON.stringify(input.ExpressionAttributeValues ?? {}).slice(0, 120)}`;
  return `${name} ${keyOf(input.Key ?? (input.Item ? { pk: input.Item.pk, sk: input.Item.sk } : undefined))}`;
}

/**
 * Counts the requests and rounds the app's DynamoDB client sends (a middleware on it) for each API
 * request whose id (the `X-Request-Id` the caller sent, api/middleware/request.ts) starts with
 * `prefix`: calls counted side by side are told apart by the request they serve.
 */
export async function countRounds(prefix: string) {
  const { dynamo: client } = await import("../../packages/core/src/db/client");
  const { logContext } = await import("../../packages/core/src/log");
  const byRequest = new Map<string, RoundCount>();
  client().middlewareStack.add(
    (next, context) => async (args) => {
      const requestId = logContext().request_id;
      if (!requestId?.startsWith(prefix) || isAside(args.input as Record<string, unknown>)) return next(args);
      const count = byRequest.get(requestId) ?? {
        requests: 0,
        rounds: 0,
        byCommand: {},
        inFlight: 0,
        answered: true,
      };
      byRequest.set(requestId, count);
      const name = (context as { commandName?: string }).commandName ?? "unknown";
      if (count.answered) {
        count.rounds += 1;
        count.answered = false;
      }
      count.inFlight += 1;
      count.requests += 1;
      count.byCommand[name] = (count.byCommand[name] ?? 0) + 1;
      if (process.env.REQUEST_BUDGETS_TRACE) {
        count.trace ??= [];
        count.trace.push(`${count.rounds} ${described(name, args.input as Record<string, any>)}`);
      }
      try {
        return await next(args);
      } finally {
        count.inFlight -= 1;
        count.answered = true;
      }
    },
    { step: "initialize", name: "roundCounter" },
  );
  return {
    /** What the request with this id sent, once none of its requests is in flight (work after the answer). */
    async of(requestId: string): Promise<RoundCount> {
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((done) => setTimeout(done, 10));
        quiet = (byRequest.get(requestId)?.inFlight ?? 0) === 0 ? quiet + 1 : 0;
      }
      return (
        byRequest.get(requestId) ?? { requests: 0, rounds: 0, byCommand: {}, inFlight: 0, answered: true }
      );
    },
  };
}

export interface Budget {
  requests: number;
  rounds: number;
}

export interface OperationRow {
  /** "METHOD /api/path/{param}", as the OpenAPI document names it. */
  operation: string;
  status: number;
  /** The answer's body, shortened, when it is not one of the operation's documented successes. */
  error?: string;
  requests: number;
  rounds: number;
  budget: Budget | null;
  byCommand: Record<string, number>;
  trace?: string[];
}

export const overBudget = (row: OperationRow) =>
  !row.budget || row.requests > row.budget.requests || row.rounds > row.budget.rounds;

/** The table `npm run bench -- --requests` prints, its last line the count over budget. */
export function formatRows(rows: OperationRow[]): string {
  const width = Math.max(...rows.map((row) => row.operation.length), 9);
  const lines = [
    `${"operation".padEnd(width)}  status  requests  rounds  budget (requests/rounds)`,
    ...rows.map(
      (row) =>
        `${row.operation.padEnd(width)}  ${String(row.status).padStart(6)}  ${String(row.requests).padStart(8)}  ${String(row.rounds).padStart(6)}  ${
          row.budget ? `≤ ${row.budget.requests} in ≤ ${row.budget.rounds}` : "none"
        }${overBudget(row) ? "  OVER" : ""}`,
    ),
    `operations over budget: ${rows.filter(overBudget).length}`,
  ];
  return lines.join("\n");
}
