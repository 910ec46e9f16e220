/**
 * `npm run bench -- --backoffice [--members 10000]`: the back-office over a large organisation.
 * Seeds N members (`seedBulkOrganisation`: member records, search terms and a weekly card
 * membership each, as the app writes them) into a fresh DynamoDB Local, then, over HTTP as the
 * organisation's admin: `GET /api/members` first page (by name, and filtered by payment type + tag),
 * `POST /api/search` with two letters and with a full name word, the gyms list (its counts are
 * counter rows), and `POST /api/members/export` of every member (time, rows, peak RSS).
 */
import { freePort } from "../support/free-port";
import { countDynamoRequests, percentile } from "./measure";
import type { BenchRow } from "./payments-list";

export async function backofficeBench(rows: BenchRow[], members: number) {
  process.env.APP_ENV = "local";
  process.env.LOG_LEVEL = "silent";
  process.env.TABLE_NAME = "bench-backoffice";
  process.env.UPLOADS_DIR = `.data/bench-uploads-${Date.now()}`;
  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({ port: await freePort(), heapMb: 1536 });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  try {
    await ensureTable(dynamo.endpoint, "bench-backoffice");
    const { seedBulkOrganisation } = await import("../../packages/functions/src/local/seed/bulk");
    const { addDays, aucklandDate } = await import("../../packages/core/src/billing/calendar");
    const started = performance.now();
    const seeded = await seedBulkOrganisation({
      members,
      firstDue: addDays(aucklandDate(new Date()), 1),
      onProgress: (done) =>
        process.stdout.write(`\r  seeding members ${done.toLocaleString()} / ${members.toLocaleString()}`),
    });
    process.stdout.write(
      `\r  seeded ${members.toLocaleString()} members in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );

    const count = await countDynamoRequests();
    const { serveApi } = await import("../../packages/functions/src/local/server");
    const { signIn } = await import("../support/api");
    const server = await serveApi(await freePort());
    try {
      const admin = await signIn(server.url, seeded.admin_email);
      const timed = async (
        label: string,
        call: () => Promise<{ status: number; body: any }>,
        budgetMs: number | null,
        describe: (body: any) => string,
      ) => {
        for (let i = 0; i < 10; i++) await call();
        const times: number[] = [];
        const before = count.requests;
        let last: any;
        const runs = 100;
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          const res = await call();
          times.push(performance.now() - t);
          if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
          last = res.body;
        }
        times.sort((a, b) => a - b);
        const p95 = percentile(times, 95);
        rows.push({
          figure: `${label}, ${members.toLocaleString()} members: p50 / p95 (${describe(last)}, ${((count.requests - before) / runs).toFixed(1)} DynamoDB requests)`,
          value: `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
          budget: budgetMs ? `p95 < ${budgetMs} ms` : "—",
          ok: budgetMs ? p95 < budgetMs : null,
        });
      };
      const listed = (body: any) => `${body.data.length} rows`;
      await timed("GET /api/members first page by name", () => admin.get("/api/members"), 150, listed);
      await timed(
        "GET /api/members first page, card payers tagged 'early bird'",
        () => admin.get("/api/members?payment_type=stripe_card&tag=early%20bird"),
        150,
        listed,
      );
      await timed(
        "GET /api/members first page by join date",
        () => admin.get("/api/members?sort=joined"),
        150,
        listed,
      );
      await timed(
        "POST /api/search two letters ('wa')",
        () => admin.post("/api/search", { query: "wa" }),
        100,
        (b) => `${b.data.length} results`,
      );
      await timed(
        "POST /api/search name words ('aroha ngata')",
        () => admin.post("/api/search", { query: "aroha ngata" }),
        100,
        (b) => `${b.data.length} results`,
      );
      await timed(
        "GET /api/gyms (staff and member counts)",
        () => admin.get("/api/gyms"),
        150,
        (b) => `${b.data.length} gyms, ${b.data[0]?.members_count} members counted`,
      );

      // The export of every member: time to the 303 (file written), then the file's rows.
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const t = performance.now();
      const { call, file } = await admin.exportCsv("/api/members/export", {});
      const exportMs = performance.now() - t;
      clearInterval(sampler);
      if (call.status !== 303 || !file) throw new Error(`export: ${call.status}`);
      const lines = file.text.trim().split("\n").length - 1;
      rows.push(
        {
          figure: `POST /api/members/export of ${members.toLocaleString()} members: time to written file and download (${lines.toLocaleString()} rows, ${(file.text.length / 1024 / 1024).toFixed(1)} MB)`,
          value: `${(exportMs / 1000).toFixed(2)} s`,
          budget: "< 10 s",
          ok: exportMs < 10_000 && lines === members,
        },
        {
          figure: "Members export: peak RSS during the export (API in this process)",
          value: `${Math.round(peak / 1024 / 1024)} MB (${Math.round(rssBefore / 1024 / 1024)} MB before)`,
          budget: "flat",
          ok: null,
        },
      );
    } finally {
      await server.close();
    }
  } finally {
    await dynamo.stop();
    const { rm } = await import("node:fs/promises");
    await rm(process.env.UPLOADS_DIR!, { recursive: true, force: true });
  }
}
