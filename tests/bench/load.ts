/**
 * `npm run bench -- --load [--members 10000] [--seconds 30]`: the load the API holds. Seeds a
 * 10,000-member organisation (`seedBulkOrganisation`, as `--backoffice`), serves the API in its
 * own process (tests/bench/load-server.ts, the local server `npm start` runs), then drives it with
 * autocannon, 50 keep-alive connections for 30 s per scenario:
 *  - the members list, a search, a member's page (500 members in turn), the payments list, as the
 *    organisation admin;
 *  - registration: register → the emailed code (read from the local mailbox) → a bank account
 *    (simulated Akahu) → subscribe, each journey a new person from its own address, at most 5,000.
 * Prints p50/p95/p99 of every request, requests per second, errors (non-2xx answers, failed and
 * timed-out requests) and connection resets: connections the server closed under the load (every
 * client keeps one connection open, so any close the client did not ask for is one).
 * `--connections N` changes the 50 (a quick check on a busy machine). `--db DIR` keeps DynamoDB
 * Local's data in DIR (on disk instead of in memory) and seeds it only once: a later run with the
 * same DIR and member count reuses the organisation (its seed, 2–3 minutes for 10,000 members, is
 * the slowest part of a run). `--only WORD` runs only the scenarios whose label contains WORD.
 */
import { fork } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { resolve } from "node:path";
import autocannon from "autocannon";
import { freePort } from "../support/free-port";
import { percentile, type RequestCount } from "./measure";
import type { BenchRow } from "./payments-list";

const MAX_JOURNEYS = 5_000;

/** Every TCP connection this process opens, and how many the other side closed. */
function watchConnections() {
  const counts = { opened: 0, closedByServer: 0, watching: false };
  const connect = net.connect;
  (net as { connect: typeof net.connect }).connect = ((...args: Parameters<typeof net.connect>) => {
    const socket = connect(...args);
    if (counts.watching) {
      counts.opened += 1;
      socket.once("end", () => {
        if (counts.watching) counts.closedByServer += 1;
      });
      socket.once("error", () => {
        if (counts.watching) counts.closedByServer += 1;
      });
    }
    return socket;
  }) as typeof net.connect;
  return counts;
}

const cookieOf = (headers: Record<string, unknown>, previous: string) => {
  const raw = headers["set-cookie"] ?? headers["Set-Cookie"];
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[];
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const),
  );
  for (const cookie of list) {
    const [pair] = cookie.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    if (!value || /max-age=0/i.test(cookie)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
};

export interface LoadOptions {
  members: number;
  seconds: number;
  connections?: number;
  /** DynamoDB Local's data on disk here, seeded once and reused (`--db`). */
  dbPath?: string;
  /** Only the scenarios whose label contains this (`--only`). */
  only?: string;
}

export async function loadBench(rows: BenchRow[], options: LoadOptions) {
  const { members, seconds, connections = 50, dbPath, only } = options;
  process.env.APP_ENV = "local";
  process.env.LOG_LEVEL = "silent";
  process.env.TABLE_NAME = "bench-load";
  process.env.SESSION_SECRET ??= "bench-load-session-secret-0123456789abcdef";
  process.env.UPLOADS_DIR = `.data/bench-uploads-${Date.now()}`;
  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({ port: await freePort(), heapMb: 1536, dbPath });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  const port = await freePort();
  const server = fork(resolve(import.meta.dirname, "load-server.ts"), [], {
    // LOAD_SERVER_FLAGS adds Node flags to the server's process (e.g. `--cpu-prof --cpu-prof-dir=DIR`).
    execArgv: [
      "--import",
      "tsx",
      "--disable-warning=NodeVersionSupportWarning",
      ...(process.env.LOAD_SERVER_FLAGS?.split(" ").filter(Boolean) ?? []),
    ],
    env: { ...process.env, LOAD_PORT: String(port) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    await ensureTable(dynamo.endpoint, "bench-load");
    // This process's start-up point, with the simulated providers (the seed saves each member's
    // card with the simulated Stripe): without it the seed asked for STRIPE_SECRET_KEY and stopped.
    await import("../../packages/functions/src/local/app");
    const { seedBulkOrganisation } = await import("../../packages/functions/src/local/seed/bulk");
    const { addDays, aucklandDate } = await import("../../packages/core/src/billing/calendar");
    const { db } = await import("../../packages/core/src/db/service");
    const { simulatedAkahuCode } = await import("../../packages/core/src/simulators/akahu");
    const started = performance.now();
    const today = aucklandDate(new Date());
    const kept = dbPath ? resolve(dbPath, `seeded-${members}.json`) : null;
    type Seeded = Awaited<ReturnType<typeof seedBulkOrganisation>>;
    let seeded: Seeded;
    if (kept && existsSync(kept)) {
      seeded = JSON.parse(readFileSync(kept, "utf8")) as Seeded;
      console.log(`  reusing the ${members.toLocaleString()} members seeded in ${dbPath}`);
    } else {
      seeded = await seedBulkOrganisation({
        members,
        firstDue: addDays(today, 1),
        onProgress: (done) =>
          process.stdout.write(`\r  seeding members ${done.toLocaleString()} / ${members.toLocaleString()}`),
      });
      process.stdout.write(
        `\r  seeded ${members.toLocaleString()} members in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
      );
      if (kept) writeFileSync(kept, JSON.stringify(seeded));
    }
    const gym = (
      await db().entities.gym.get({ organisation_id: seeded.organisation_id, gym_id: seeded.gym_id }).go()
    ).data;
    if (!gym) throw new Error("The bulk organisation has no gym.");

    const url = await new Promise<string>((done, fail) => {
      server.once("message", (message: { url: string }) => done(message.url));
      server.once("exit", (code) => fail(new Error(`the load server exited (${code})`)));
    });
    const { signIn } = await import("../support/api");
    // An admin of this run (a reused organisation's owner would soon meet the sign-in code limit).
    const { createUser } = await import("../../packages/core/src/user/service");
    const { putRole } = await import("../../packages/core/src/user/roles");
    const { DEMO_PASSWORD } = await import("../../packages/functions/src/local/seed/identity");
    const adminEmail = `load-admin-${Date.now()}@bench.example.nz`;
    const runAdmin = await createUser({
      email: adminEmail,
      name: "load admin",
      password: DEMO_PASSWORD,
      email_verified: true,
    });
    await putRole({ organisation_id: seeded.organisation_id, user_id: runAdmin.user_id, org_role: "admin" });
    const admin = await signIn(url, adminEmail, DEMO_PASSWORD);
    const staffHeaders = { cookie: admin.cookieHeader(), "x-requested-with": "XMLHttpRequest" };

    // 500 members to open in turn: the first five pages of the list.
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await admin.get(`/api/members?per_page=100${cursor ? `&cursor=${cursor}` : ""}`);
      ids.push(...res.body.data.map((m: { id: string }) => m.id));
      cursor = res.body.meta?.next_cursor ?? res.body.next_cursor;
      if (!cursor) break;
      cursor = encodeURIComponent(cursor);
    }

    const sockets = watchConnections();
    /** The server's DynamoDB requests since the last call (load-server.ts counts them). */
    const serverCount = () =>
      new Promise<RequestCount>((done) => {
        const answer = (message: { count?: RequestCount }) => {
          if (!message.count) return;
          server.off("message", answer);
          done(message.count);
        };
        server.on("message", answer);
        server.send("count");
      });
    const run = async (
      label: string,
      options: Partial<autocannon.Options>,
      watch?: (instance: autocannon.Instance) => void,
    ) => {
      if (only && !label.includes(only)) return null;
      const latencies: number[] = [];
      let non2xx = 0;
      const statuses: Record<number, number> = {};
      let failed = 0;
      let timeouts = 0;
      sockets.opened = 0;
      sockets.closedByServer = 0;
      sockets.watching = true;
      await serverCount();
      const instance = autocannon({
        url,
        connections,
        duration: seconds,
        timeout: 10,
        ...options,
      });
      instance.on("response", (_client, status: number, _bytes, ms: number) => {
        latencies.push(ms);
        if (status < 200 || status >= 300) non2xx += 1;
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
      instance.on("reqError", (error: Error) => {
        failed += 1;
        if (/timed out/.test(error.message)) timeouts += 1;
      });
      watch?.(instance);
      const result = await instance;
      sockets.watching = false;
      const dynamoRequests = (await serverCount()).requests;
      latencies.sort((a, b) => a - b);
      // autocannon drops a connection itself after a timeout (its listeners go with it): only the
      // server's closes count as resets.
      const resets = sockets.closedByServer;
      const errors = non2xx + failed;
      const perCall = latencies.length ? (dynamoRequests / latencies.length).toFixed(1) : "–";
      if (non2xx) console.log(`  ${label}: answers by status ${JSON.stringify(statuses)}`);
      rows.push({
        figure: `load: ${label}, ${connections} clients × ${seconds} s: p50 / p95 / p99 (${(latencies.length / (result.duration || seconds)).toFixed(0)} req/s, ${latencies.length.toLocaleString()} requests, ${errors} errors${timeouts ? ` (${timeouts} timed out)` : ""}, ${resets} connection resets; ${perCall} DynamoDB requests a call)`,
        value: latencies.length
          ? `${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${percentile(latencies, 99).toFixed(0)} ms`
          : "none answered",
        budget: "0 errors, 0 resets",
        ok: errors === 0 && resets === 0 && latencies.length > 0,
      });
      return result;
    };

    await run("GET /api/members", { headers: staffHeaders, url: `${url}/api/members` });
    await run("POST /api/search ('wa')", {
      method: "POST",
      headers: { ...staffHeaders, "content-type": "application/json" },
      url: `${url}/api/search`,
      body: JSON.stringify({ query: "wa" }),
    });
    let next = 0;
    await run(`GET /api/members/{id} (${ids.length} members in turn)`, {
      headers: staffHeaders,
      requests: [
        {
          setupRequest: (request) => ({ ...request, path: `/api/members/${ids[next++ % ids.length]}` }),
        },
      ],
    });
    await run("GET /api/payments", { headers: staffHeaders, url: `${url}/api/payments` });

    // Registration journeys: each connection registers one new person after another.
    let journeys = 0;
    let subscribed = 0;
    type Journey = {
      email: string;
      ip: string;
      cookie: string;
      code?: string;
      state?: string;
      account?: string;
    };
    const json = { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" };
    const as = (context: Journey, extra: Record<string, string> = {}) => ({
      ...json,
      "x-forwarded-for": context.ip,
      ...(context.cookie ? { cookie: context.cookie } : {}),
      ...extra,
    });
    const keep = (status: number, headers: Record<string, unknown>, context: Journey) => {
      context.cookie = cookieOf(headers, context.cookie);
      return status;
    };
    /** Each step's latencies (from its request's setup to its answer), to say which step is slow. */
    const stepTimes = new Map<string, number[]>();
    const timed = (steps: autocannon.Request[]) =>
      steps.map((step) => ({
        ...step,
        setupRequest: (request: autocannon.Request, context: Journey & { sentAt?: number }) => {
          context.sentAt = performance.now();
          return step.setupRequest ? step.setupRequest(request, context) : request;
        },
        onResponse: (
          status: number,
          body: string,
          context: Journey & { sentAt?: number },
          headers?: Record<string, unknown>,
        ) => {
          const name = `${step.method} ${step.path}`;
          if (context.sentAt !== undefined)
            stepTimes.set(name, [...(stepTimes.get(name) ?? []), performance.now() - context.sentAt]);
          step.onResponse?.(status, body, context, headers);
        },
      }));
    const registration = await run(
      "registration: register → code → bank account → subscribe (requests of every step)",
      {
        requests: timed([
          {
            method: "POST",
            path: "/api/register",
            setupRequest: (request, context: Journey) => {
              const n = ++journeys;
              Object.assign(context, {
                email: `load${n}.${Date.now()}@example.nz`,
                ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
                cookie: "",
                code: undefined,
                state: undefined,
                account: undefined,
              });
              return {
                ...request,
                headers: as(context),
                body: JSON.stringify({
                  gym: gym.uuid,
                  price_id: seeded.price_id,
                  name: `load tester ${n}`,
                  email: context.email,
                  mobile_number: "021 123 4567",
                  dob: "1990-01-01",
                  password: "a long passphrase",
                  start_date: today,
                }),
              };
            },
            onResponse: (status, _body, context: Journey, headers) => {
              keep(status, headers as Record<string, unknown>, context);
            },
          },
          {
            method: "GET",
            path: "/api/dev/mail",
            setupRequest: (request, context: Journey) => ({ ...request, headers: as(context) }),
            onResponse: (_status, body, context: Journey) => {
              const mail = (JSON.parse(body).data ?? []) as { to: string; subject: string }[];
              context.code = mail
                .find((m) => m.to === context.email && /sign-in code|code to join/.test(m.subject))
                ?.subject.slice(0, 6);
            },
          },
          {
            method: "POST",
            path: "/api/email/verify",
            setupRequest: (request, context: Journey) => ({
              ...request,
              headers: as(context),
              body: JSON.stringify({ code: context.code ?? "000000" }),
            }),
            onResponse: (status, _body, context: Journey, headers) => {
              keep(status, headers as Record<string, unknown>, context);
            },
          },
          {
            method: "GET",
            path: "/api/akahu/auth-url",
            setupRequest: (request, context: Journey) => ({ ...request, headers: as(context) }),
            onResponse: (_status, body, context: Journey) => {
              const address = JSON.parse(body).data?.url;
              context.state = address ? (new URL(address).searchParams.get("state") ?? undefined) : undefined;
            },
          },
          {
            method: "POST",
            path: "/api/akahu/exchange",
            setupRequest: (request, context: Journey) => ({
              ...request,
              headers: as(context),
              body: JSON.stringify({
                code: simulatedAkahuCode(context.state ?? ""),
                state: context.state ?? "",
              }),
            }),
          },
          {
            method: "POST",
            path: "/api/akahu/sync-accounts",
            setupRequest: (request, context: Journey) => ({ ...request, headers: as(context), body: "{}" }),
            onResponse: (_status, body, context: Journey) => {
              context.account = (JSON.parse(body).data ?? [])[0]?.id;
            },
          },
          {
            method: "POST",
            path: "/api/me/payment-types/bank-account",
            setupRequest: (request, context: Journey) => ({
              ...request,
              headers: as(context),
              body: JSON.stringify({ account_id: context.account ?? "" }),
            }),
          },
          {
            method: "POST",
            path: "/api/subscriptions",
            setupRequest: (request, context: Journey) => ({ ...request, headers: as(context), body: "{}" }),
            onResponse: (status) => {
              if (status === 201) subscribed += 1;
            },
          },
        ]),
      },
      (instance) => {
        instance.on("response", () => {
          if (journeys >= MAX_JOURNEYS) instance.stop();
        });
      },
    );
    for (const [step, times] of stepTimes) {
      times.sort((a, b) => a - b);
      console.log(
        `  registration step ${step}: p50 / p95 ${percentile(times, 50).toFixed(0)} / ${percentile(times, 95).toFixed(0)} ms (${times.length} answered)`,
      );
    }
    if (registration)
      rows.push({
        figure: `load: registration journeys completed (subscribed) in ${registration.duration.toFixed(0)} s`,
        value: `${subscribed} (${(subscribed / (registration.duration || seconds)).toFixed(1)} /s)`,
        budget: "—",
        ok: subscribed > 0 ? null : false,
      });
  } finally {
    server.disconnect();
    await new Promise((done) => server.once("exit", done));
    await dynamo.stop();
    const { rm } = await import("node:fs/promises");
    await rm(process.env.UPLOADS_DIR!, { recursive: true, force: true });
  }
}
