import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { HttpClient } from "./http";

/**
 * For an API test file: a fresh table in the shared DynamoDB Local and the real API served
 * over HTTP on a free port. Returns a handle filled in by beforeAll.
 */
export function useTestApi() {
  const handle = {
    url: "",
    tableName: "",
    client: (options?: { xhr?: boolean }) => new HttpClient(handle.url, options),
  };
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    process.env.APP_ENV = "test";
    process.env.LOG_LEVEL ??= "warn";
    process.env.DYNAMODB_ENDPOINT = inject("dynamoEndpoint");
    process.env.TABLE_NAME = handle.tableName = `test-${randomUUID()}`;
    const { resetDynamo } = await import("../../packages/core/src/db/client");
    resetDynamo();
    const { ensureTable } = await import("../../packages/functions/src/local/database");
    await ensureTable(process.env.DYNAMODB_ENDPOINT, handle.tableName);
    const { serveApi } = await import("../../packages/functions/src/local/server");
    const server = await serveApi(0);
    handle.url = server.url;
    close = server.close;
  });

  afterAll(async () => {
    await close?.();
  });

  return handle;
}
