/**
 * `npm run bench -- --scale [--members 50000]`: the reads that must hold at scale (issue 39,
 * docs/performance.md "At scale"). Seeds N members (`seedBulkOrganisation`, as `npm run seed --
 * --members N` does) and four staff into a fresh DynamoDB Local, then counts, one call at a time
 * as the organisation's admin over HTTP: the staff list, the members list's first page and the
 * expected-payments page (DynamoDB requests, items read, time); then the billing run of the first
 * due day (requests and items per due payment). Items read is the figure that grows with the
 * organisation when a read is not bounded.
 */
import { freePort } from "../support/free-port";
import { countDynamoRequests, measured } from "./measure";
import type { BenchRow } from "./payments-list";

export async function scaleBench(rows: BenchRow[], members: number) {
  process.env.APP_ENV = "test";
  process.env.LOG_LEVEL = "silent";
  process.env.TABLE_NAME = `bench-scale-${Date.now()}`;
  process.env.UPLOADS_DIR = `.data/bench-uploads-${Date.now()}`;
  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({ port: await freePort(), heapMb: 1536 });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  try {
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME);
    const { seedBulkOrganisation } = await import("../../packages/functions/src/local/seed/bulk");
    const { putRole } = await import("../../packages/core/src/user/roles");
    const { createUser } = await import("../../packages/core/src/user/service");
    const { runJob } = await import("../../packages/core/src/jobs/run");
    const { setBusinessClock } = await import("../../packages/core/src/clock");
    const { setSimulatedChaos } = await import("../../packages/core/src/simulators/simulation");
    const { setWebhookDeliverer } = await import("../../packages/core/src/simulators/webhook-delivery");
    // The local app wires the simulated providers and every reaction (as `npm start`).
    await import("../../packages/functions/src/local/app");

    const started = performance.now();
    const firstDue = "2026-12-07";
    const seeded = await seedBulkOrganisation({
      members,
      firstDue,
      onProgress: (done) =>
        process.stdout.write(`\r  seeding members ${done.toLocaleString()} / ${members.toLocaleString()}`),
    });
    const seedMs = performance.now() - started;
    process.stdout.write(
      `\r  seeded ${members.toLocaleString()} members in ${(seedMs / 1000).toFixed(0)} s\n`,
    );
    for (let i = 0; i < 4; i++) {
      const user = await createUser({
        email: `trainer${i}-${seeded.organisation_id.slice(-6).toLowerCase()}@bench.example.nz`,
        name: `bench trainer ${i}`,
        password: "demo-password",
        email_verified: true,
      });
      await putRole({
        organisation_id: seeded.organisation_id,
        user_id: user.user_id,
        gym_roles: [{ gym_id: seeded.gym_id, role: "personal_trainer" }],
      });
    }

    const count = await countDynamoRequests();
    count.counting = false;
    const { serveApi } = await import("../../packages/functions/src/local/server");
    const { signIn } = await import("../support/api");
    const server = await serveApi(await freePort());
    try {
      const admin = await signIn(server.url, seeded.admin_email);
      const once = async (
        label: string,
        call: () => Promise<{ status: number; body: any }>,
        budget: number,
      ) => {
        await call(); // warm
        Object.assign(count, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
        const t = performance.now();
        const res = await call();
        const ms = performance.now() - t;
        count.counting = false;
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
        rows.push({
          figure: `${label}, ${members.toLocaleString()} members: DynamoDB requests / items read (${ms.toFixed(0)} ms)`,
          value: `${measured(count)} / ${count.items}`,
          budget: `items ≤ ${budget}`,
          ok: count.items <= budget,
        });
      };
      await once(
        "GET /api/organisations/{id}/staff",
        () => admin.get(`/api/organisations/${seeded.organisation_id}/staff`),
        100,
      );
      await once("GET /api/members (first page)", () => admin.get("/api/members"), 200);
      await once(
        "GET /api/expected-payments-debugging (14 days)",
        () => admin.get("/api/expected-payments-debugging"),
        // The days ahead are counter rows (14 days x 1 gym x 16 shards at most), the attention
        // part a page of 100 a shard: not the payments due (issue 39 item 4; was 20,000).
        1_200,
      );
    } finally {
      await server.close();
    }

    // The billing run of the first due day (weekly anchors over seven days: about N / 7 due).
    setWebhookDeliverer(undefined);
    setSimulatedChaos({ settleDelayMs: 3_600_000 });
    await setBusinessClock(new Date("2026-12-06T20:00:00.000Z")); // 09:00 on 7 December in Auckland
    Object.assign(count, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
    const runStarted = performance.now();
    const result = await runJob("billing-run");
    const runMs = performance.now() - runStarted;
    count.counting = false;
    const due = Number(result.summary.due ?? 0);
    const per = (n: number) => (due ? (n / due).toFixed(2) : "–");
    rows.push(
      {
        figure: `Billing run, ${members.toLocaleString()} members: payments due / time`,
        value: `${due} / ${(runMs / 1000).toFixed(1)} s`,
        budget: "–",
        ok: null,
      },
      {
        figure: "Billing run: DynamoDB requests / items read per due payment",
        value: `${per(measured(count))} / ${per(count.items)}`,
        budget: "≤ 5 requests",
        ok: due > 0 && measured(count) / due <= 5,
      },
      { figure: "Seed: time", value: `${(seedMs / 1000).toFixed(0)} s`, budget: "–", ok: null },
    );
  } finally {
    await dynamo.stop();
    const { rm } = await import("node:fs/promises");
    await rm(process.env.UPLOADS_DIR!, { recursive: true, force: true });
  }
}
