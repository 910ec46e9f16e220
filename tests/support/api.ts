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
    process.env.LOGIN_SLOWDOWN_BASE_MS ??= "5";
    process.env.FORGOT_PASSWORD_ANSWER_MS ??= "150";
    process.env.DYNAMODB_ENDPOINT = inject("dynamoEndpoint");
    const { dropTables, ensureTable } = await import("../../packages/functions/src/local/database");
    // The tables of the files this worker ran before: DynamoDB Local's work per request grows with
    // the tables it holds (docs/performance.md "Suite time", eleventh round). Dropped here, after
    // tests/support/core-setup.ts has cleared the settlements and webhooks the finished file left
    // pending in the simulated providers, rather than in that file's own afterAll.
    await dropTables(process.env.DYNAMODB_ENDPOINT, finishedTables.splice(0));
    process.env.TABLE_NAME = handle.tableName = `test-${randomUUID()}`;
    const { resetDynamo } = await import("../../packages/core/src/db/client");
    resetDynamo();
    await ensureTable(process.env.DYNAMODB_ENDPOINT, handle.tableName);
    const { serveApi } = await import("../../packages/functions/src/local/server");
    const server = await serveApi(0);
    handle.url = server.url;
    close = server.close;
  });

  afterAll(async () => {
    await close?.();
    finishedTables.push(handle.tableName);
  });

  return handle;
}

/**
 * The tables of this worker's finished files, dropped when its next file starts. On globalThis: a
 * worker's files share the process (vitest.config.ts `isolate: false`), whether or not this module
 * is evaluated again for each.
 */
const shared = globalThis as { gymFinishedTestTables?: string[] };
shared.gymFinishedTestTables ??= [];
const finishedTables = shared.gymFinishedTestTables;

/** An API test file with the demo organisations, gyms and people seeded. */
export function useSeededApi() {
  const api = useTestApi();
  const handle = Object.assign(api, {
    seed: undefined as unknown as import("../../packages/functions/src/local/seed/identity").SeededIdentity,
  });
  beforeAll(async () => {
    const { seedIdentity } = await import("../../packages/functions/src/local/seed/identity");
    handle.seed = await seedIdentity();
  });
  return handle;
}

/** The newest sign-in code emailed to an address (read from the local mailbox over HTTP). */
export async function latestCode(client: HttpClient, email: string): Promise<string> {
  const mail = await client.get("/api/dev/mail");
  const message = (mail.body.data as { to: string; subject: string }[]).find(
    (m) => m.to === email && /sign-in code|code to join/.test(m.subject),
  );
  if (!message) throw new Error(`No code emailed to ${email}`);
  return message.subject.slice(0, 6);
}

/** A client signed in as a demo person: password, then the emailed code. */
export async function signIn(baseUrl: string, email: string, password = "demo-password", ip?: string) {
  const client = new HttpClient(baseUrl);
  const headers = ip ? { "X-Forwarded-For": ip } : undefined;
  const login = await client.post("/api/login", { email, password }, headers);
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
  const verify = await client.post("/api/email/verify", { code: await latestCode(client, email) });
  if (verify.status !== 200)
    throw new Error(`verify ${email}: ${verify.status} ${JSON.stringify(verify.body)}`);
  return client;
}
