/**
 * `npm run bench -- --payments`: `GET /api/payments` with 100,000 payments in the table.
 * Seeds 2,000 members × 50 weekly payments (a year of history at two gyms: mostly sent, some
 * failed and declined, the newest upcoming) written in batches straight through the payment
 * entity, then times the first page as the organisation admin over HTTP: unfiltered (the budget),
 * and with a gym, a status and a date-range filter (reported). Also counts the items each request
 * reads (the list's bounded Query).
 */
import { randomUUID } from "node:crypto";
import { freePort } from "../support/free-port";
import { percentile } from "./measure";

export interface BenchRow {
  figure: string;
  value: string;
  budget: string;
  ok: boolean | null;
}

export async function paymentsListBench(rows: BenchRow[], total = 100_000) {
  process.env.APP_ENV = "local";
  process.env.LOG_LEVEL = "silent";
  process.env.TABLE_NAME = "bench-payments";
  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({ port: await freePort(), heapMb: 1536 });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  try {
    await ensureTable(dynamo.endpoint, "bench-payments");
    const { seedIdentity } = await import("../../packages/functions/src/local/seed/identity");
    const identity = await seedIdentity();
    const { db } = await import("../../packages/core/src/db/service");
    const { scheduledPaymentId } = await import("../../packages/core/src/payment/ids");
    const { monthKeys } = await import("../../packages/core/src/payment/store");
    const { notePaymentMonths } = await import("../../packages/core/src/payment/months");
    const { addDays, aucklandDate, startOfAucklandDay } = await import(
      "../../packages/core/src/billing/calendar"
    );
    const organisationId = identity.organisations.harbour.organisation_id;
    const gyms = [identity.gyms.ponsonby, identity.gyms.newmarket];
    const today = aucklandDate(new Date());
    const members = Math.ceil(total / 50);
    const started = performance.now();
    let written = 0;
    const batch: Record<string, unknown>[] = [];
    const { BatchWriteCommand } = await import("@aws-sdk/lib-dynamodb");
    const { dynamo: client } = await import("../../packages/core/src/db/client");
    const pending: Promise<unknown>[] = [];
    const write = async (items: Record<string, unknown>[]) => {
      let requests = items.map((item) => ({ PutRequest: { Item: item } }));
      while (requests.length) {
        const answer = await client().send(
          new BatchWriteCommand({ RequestItems: { "bench-payments": requests } }),
        );
        requests = (answer.UnprocessedItems?.["bench-payments"] ?? []) as typeof requests;
      }
    };
    const flush = async () => {
      await notePaymentMonths(batch as { organisation_id: string; due_on: string }[]);
      while (batch.length) {
        const items = batch.splice(0, 25).map(
          (p) =>
            (
              db()
                .entities.payment.put(p as never)
                .params() as { Item: Record<string, unknown> }
            ).Item,
        );
        pending.push(write(items));
        if (pending.length >= 12) await Promise.all(pending.splice(0));
      }
    };
    for (let m = 0; m < members && written < total; m++) {
      const userId = randomUUID();
      const subscriptionId = randomUUID();
      const gym = gyms[m % 2];
      const card = m % 3 !== 0;
      for (let week = 0; week < 50 && written < total; week++) {
        const dueOn = addDays(today, (week - 48) * 7 - (m % 7));
        const paymentId = scheduledPaymentId(subscriptionId, week, dueOn);
        const roll = (m * 31 + week * 17) % 100;
        const status = dueOn > today ? "upcoming" : roll < 3 ? "failed" : roll < 4 ? "declined" : "sent";
        batch.push({
          organisation_id: organisationId,
          payment_id: paymentId,
          subscription_id: subscriptionId,
          user_id: userId,
          gym_id: gym.gym_id,
          status,
          type: card ? "stripe_card" : "bank_account",
          amount: 2_400,
          surcharge: card ? 90 : 0,
          due_on: dueOn,
          period_start_at: startOfAucklandDay(dueOn).toISOString(),
          period_end_at: startOfAucklandDay(addDays(dueOn, 7)).toISOString(),
          charge_index: week,
          error_status: status === "failed" ? "insufficient_funds" : undefined,
          error_description: status === "failed" ? "Your card has insufficient funds." : undefined,
          member_name: `Member ${m}`,
          member_email: `member${m}@example.net`,
          gym_name: gym.name,
          price_label: "$24.00 Weekly",
          // In the list index, as newPayment writes it (its month named below).
          ...monthKeys({ organisation_id: organisationId, payment_id: paymentId, due_on: dueOn }),
        });
        written++;
        if (batch.length === 200) await flush();
      }
      if (m % 200 === 0)
        process.stdout.write(`\r  seeding payments ${written.toLocaleString()} / ${total.toLocaleString()}`);
    }
    await flush();
    await Promise.all(pending.splice(0));
    const seedSeconds = (performance.now() - started) / 1000;
    process.stdout.write(`\r  seeded ${written.toLocaleString()} payments in ${seedSeconds.toFixed(0)} s\n`);

    const { serveApi } = await import("../../packages/functions/src/local/server");
    const { signIn } = await import("../support/api");
    const { listStats } = await import("../../packages/core/src/payment/list");
    const server = await serveApi(await freePort());
    try {
      const admin = await signIn(server.url, "admin@example.com");
      const cases: [string, string, boolean][] = [
        ["first page, no filter (25 per page)", "", true],
        ["first page, one gym", `gym_id=${gyms[1].gym_id}`, false],
        ["first page, status failed (3 %)", "status=failed", false],
        ["first page, last 30 days", `from=${addDays(today, -30)}&to=${today}`, false],
      ];
      for (const [label, query, budgeted] of cases) {
        for (let i = 0; i < 20; i++) await admin.get(`/api/payments?${query}`);
        const times: number[] = [];
        const before = { ...listStats };
        let count = 0;
        const runs = 200;
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          const res = await admin.get(`/api/payments?${query}`);
          times.push(performance.now() - t);
          if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
          count = res.body.data.length;
        }
        times.sort((a, b) => a - b);
        const items = (listStats.items - before.items) / runs;
        const queries = (listStats.queries - before.queries) / runs;
        const p95 = percentile(times, 95);
        rows.push({
          figure: `GET /api/payments ${label}, ${written.toLocaleString()} payments: p50 / p95 (${count} rows, ${queries.toFixed(1)} queries, ${items.toFixed(0)} items read)`,
          value: `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)} ms`,
          budget: budgeted ? "p95 < 150 ms" : "—",
          ok: budgeted ? p95 < 150 : null,
        });
      }
    } finally {
      await server.close();
    }
  } finally {
    await dynamo.stop();
  }
}
