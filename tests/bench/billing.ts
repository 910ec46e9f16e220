/**
 * `npm run bench -- --billing [--members 10000]`: the billing run over a large organisation.
 * Seeds N members with weekly subscriptions (anchors over seven days) into a fresh DynamoDB Local,
 * then runs the billing job for one business day with the in-process charge queue (the same
 * consumer and concurrency bound as AWS's), and reports: total time, DynamoDB requests per due
 * payment (counted by a middleware on the client, by command), items read per due payment,
 * Scans (must be 0), and peak RSS. Settlement by webhook is measured separately: its requests per
 * payment, less the HTTP front door's rate-limit counter and the local runtime's own requests
 * (tests/bench/measure.ts `aside`), which are printed too.
 */
import { SingleBar } from "cli-progress";
import { freePort } from "../support/free-port";
import { countDynamoRequests, measured } from "./measure";

export interface BillingRow {
  figure: string;
  value: string;
  budget: string;
  ok: boolean | null;
}

export async function billingBench(members: number): Promise<BillingRow[]> {
  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({ port: await freePort() });
  process.env.APP_ENV = "test";
  process.env.LOG_LEVEL = "error";
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = `bench-${Date.now()}`;
  try {
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME);
    const { setBusinessClock } = await import("../../packages/core/src/clock");
    const { seedBulkOrganisation } = await import("../../packages/functions/src/local/seed/bulk");
    const { runJob } = await import("../../packages/core/src/jobs/run");
    const { setSimulatedChaos, settleSimulatedNow } = await import(
      "../../packages/core/src/simulators/simulation"
    );
    const { registerLocalWebhookDelivery } = await import(
      "../../packages/functions/src/local/webhook-delivery"
    );
    const { app } = await import("../../packages/functions/src/local/app");
    const { setWebhookDeliverer } = await import("../../packages/core/src/simulators/webhook-delivery");

    const counts = await countDynamoRequests();
    counts.counting = false;

    const bar = new SingleBar({ format: " seeding [{bar}] {value}/{total} members", hideCursor: true });
    bar.start(members, 0);
    const firstDue = "2026-12-07";
    const seeded = await seedBulkOrganisation({ members, firstDue, onProgress: (done) => bar.update(done) });
    bar.stop();

    // Settlement is measured on its own: the run ends when every charge is recorded. In AWS the
    // providers' webhooks reach the API function, not the job: they are not delivered during the run.
    setWebhookDeliverer(undefined);
    setSimulatedChaos({ settleDelayMs: 3_600_000 });
    await setBusinessClock(new Date("2026-12-06T20:00:00.000Z")); // 09:00 on 7 December in Auckland
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    counts.counting = true;
    const started = performance.now();
    const result = await runJob("billing-run");
    const runMs = performance.now() - started;
    counts.counting = false;
    const peakRunRss = Math.max(peakRss, process.memoryUsage().rss);
    const run = { ...counts, byCommand: { ...counts.byCommand } };
    const due = result.summary.due;

    Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {} });
    registerLocalWebhookDelivery(app);
    counts.counting = true;
    const settleStarted = performance.now();
    await settleSimulatedNow();
    const settleMs = performance.now() - settleStarted;
    counts.counting = false;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const settle = { ...counts, measured: measured(counts) };

    const perDue = (n: number) => (due ? (n / due).toFixed(2) : "–");
    console.log(
      `\n billing run: ${JSON.stringify(result.summary)}; requests by command: ${JSON.stringify(run.byCommand)}`,
    );
    console.log(
      ` settlement: requests by command: ${JSON.stringify(settle.byCommand)}; of them aside: ${JSON.stringify(settle.aside)}`,
    );
    return [
      {
        figure: `Billing: subscriptions in the organisation`,
        value: String(seeded.members),
        budget: "10,000",
        ok: null,
      },
      { figure: "Billing: payments due on the business day", value: String(due), budget: "–", ok: null },
      {
        figure: "Billing run: total time (claim, charge, record; in-process queue)",
        value: `${(runMs / 1000).toFixed(1)} s`,
        budget: "< 60 s",
        ok: runMs < 60_000,
      },
      {
        figure: "Billing run: DynamoDB requests per due payment (claim to recorded answer)",
        value: perDue(run.requests),
        budget: "≤ 5",
        ok: due > 0 && run.requests / due <= 5,
      },
      { figure: "Billing run: items read per due payment", value: perDue(run.items), budget: "–", ok: null },
      { figure: "Billing run: Scans", value: String(run.scans), budget: "0", ok: run.scans === 0 },
      {
        figure:
          "Settlement by webhook: DynamoDB requests per payment (batch read, receipt number, one transaction, event claim; its outbox event's receipt email claim and delete: the item is written leased to it)",
        value: perDue(settle.measured),
        budget: "≤ 6",
        ok: due > 0 && settle.measured / due <= 6,
      },
      {
        figure:
          "Settlement by webhook: with the front door's rate limit and the local runtime's own (clock, mail outbox)",
        value: perDue(settle.requests),
        budget: "–",
        ok: null,
      },
      {
        figure: "Settlement by webhook: time for all",
        value: `${(settleMs / 1000).toFixed(1)} s`,
        budget: "–",
        ok: null,
      },
      { figure: "Settlement: Scans", value: String(settle.scans), budget: "0", ok: settle.scans === 0 },
      {
        figure: "Billing run: peak RSS during the run",
        value: `${Math.round(peakRunRss / 1024 / 1024)} MB (${Math.round(rssBefore / 1024 / 1024)} MB before)`,
        budget: "flat",
        ok: null,
      },
      {
        figure: "Billing: peak RSS (run and settlement)",
        value: `${Math.round(peakRss / 1024 / 1024)} MB (${Math.round(rssBefore / 1024 / 1024)} MB before)`,
        budget: "flat",
        ok: null,
      },
    ];
  } finally {
    await dynamo.stop();
  }
}
