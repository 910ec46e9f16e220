/**
 * `npm run bench -- --dashboard`: the three dashboard calls over 10,000 members with a year of
 * payments and two months of visits. The members, memberships, payments and visits are made in memory and counted into
 * the rollups by the backfill's recount (the same rows the live transitions keep, see
 * rollup.db.test.ts); the calls never read payments or members. Times each call as the
 * organisation admin over HTTP (gym and organisation scope) and counts every DynamoDB request
 * each makes (session and actor reads included).
 */
import { freePort } from "../support/free-port";
import { countDynamoRequests, percentile } from "./measure";
import type { BenchRow } from "./payments-list";

export async function dashboardBench(rows: BenchRow[], members = 10_000) {
  process.env.APP_ENV = "local";
  process.env.LOG_LEVEL = "silent";
  process.env.TABLE_NAME = "bench-dashboard";
  const { startDynamoLocal, ensureTable } = await import("../../packages/functions/src/local/database");
  const dynamo = await startDynamoLocal({ port: await freePort(), heapMb: 1536 });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  try {
    await ensureTable(dynamo.endpoint, "bench-dashboard");
    const { seedIdentity } = await import("../../packages/functions/src/local/seed/identity");
    const identity = await seedIdentity();
    const { addDays, aucklandDate, addMonthsClamped } = await import(
      "../../packages/core/src/billing/calendar"
    );
    const { recount, writeRecount } = await import("../../packages/core/src/rollup/backfill");
    const organisationId = identity.organisations.harbour.organisation_id;
    const gyms = [identity.gyms.ponsonby.gym_id, identity.gyms.newmarket.gym_id];
    const offerings = ["bench_offering_a", "bench_offering_b", "bench_offering_c"];
    const today = aucklandDate(new Date());
    const started = performance.now();
    // A deterministic spread: starts over the past year, 10 % cancelled, 5 % owing, 5 % of payments failed.
    const subs: Record<string, unknown>[] = [];
    const payments: Record<string, unknown>[] = [];
    for (let m = 0; m < members; m++) {
      const start = addDays(today, -((m * 37) % 365));
      const sub = {
        organisation_id: organisationId,
        subscription_id: `sub${m}`,
        user_id: `user${m}`,
        gym_id: gyms[m % 2],
        offering_id: offerings[m % 3],
        billing_frequency: "monthly",
        payment_method: m % 4 === 0 ? "bank_account" : "stripe_card",
        start_date: start,
        member_name: `Bench ${m}`,
        ...(m % 10 === 0
          ? {
              cancelled_at: `${today}T00:00:00.000Z`,
              cancellation_effective_at: `${addDays(start, 200)}T00:00:00.000Z`,
            }
          : {}),
        balance_owing: m % 20 === 1 ? 6000 : 0,
        failed_at: m % 20 === 1 ? `${addDays(today, -3)}T00:00:00.000Z` : undefined,
      };
      subs.push(sub);
      for (let due = start, i = 0; due <= today; due = addMonthsClamped(start, ++i)) {
        const failed = (m + i) % 20 === 0;
        payments.push({
          organisation_id: organisationId,
          payment_id: `pay${m}_${i}`,
          subscription_id: sub.subscription_id,
          user_id: sub.user_id,
          gym_id: sub.gym_id,
          member_name: sub.member_name,
          status: failed ? "failed" : "sent",
          amount: 6000,
          credit_used: 0,
          is_retry: false,
          due_on: due,
          settled_at: `${due}T00:00:00.000Z`,
        });
      }
    }
    // Visits in the last two months: two members in three came, 1–6 times a month.
    const visits: Record<string, unknown>[] = [];
    for (let m = 0; m < members; m++)
      for (const [n, month] of [today, addDays(today, -31)].entries())
        for (let v = 0; m % 3 !== 0 && v < 1 + ((m + n) % 6); v++)
          visits.push({
            organisation_id: organisationId,
            event_id: `evt${m}_${n}_${v}`,
            gym_id: gyms[m % 2],
            user_id: `user${m}`,
            member_name: `Bench ${m}`,
            offering_id: offerings[m % 3],
            visited_at: `${month}T0${v}:00:00.000Z`,
            successful: true,
          });
    const written = await writeRecount(recount(payments as never, subs as never, today, visits as never));
    const seedSeconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `  seeded ${members.toLocaleString()} members, ${payments.length.toLocaleString()} payments and ${visits.length.toLocaleString()} visits as ${written.rows.toLocaleString()} rollup rows, ${written.members.toLocaleString()} member-months and ${written.churn.toLocaleString()} churn-risk items in ${seedSeconds.toFixed(0)} s\n`,
    );

    const count = await countDynamoRequests();
    const { serveApi } = await import("../../packages/functions/src/local/server");
    const { signIn } = await import("../support/api");
    const server = await serveApi(await freePort());
    try {
      const admin = await signIn(server.url, "admin@example.com");
      const from = addDays(today, -55);
      const cases: [string, string][] = [
        ["GET /api/stats (gym)", `/api/stats?gym_id=${gyms[0]}`],
        ["GET /api/stats (organisation)", "/api/stats?scope=organisation"],
        ["GET /api/user-breakdown (organisation)", "/api/user-breakdown?scope=organisation"],
        [
          "GET /api/cost-and-visit-breakdown (gym, 8 weeks)",
          `/api/cost-and-visit-breakdown?gym_id=${gyms[0]}&from=${from}&to=${today}`,
        ],
        [
          "GET /api/cost-and-visit-breakdown (organisation, 8 weeks)",
          `/api/cost-and-visit-breakdown?scope=organisation&from=${from}&to=${today}`,
        ],
      ];
      for (const [label, path] of cases) {
        for (let i = 0; i < 10; i++) await admin.get(path);
        const times: number[] = [];
        const runs = 100;
        const before = count.requests;
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          const res = await admin.get(path);
          times.push(performance.now() - t);
          if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
        }
        times.sort((a, b) => a - b);
        const perCall = (count.requests - before) / runs;
        const p95 = percentile(times, 95);
        rows.push({
          figure: `${label}, ${members.toLocaleString()} members: p50 / p95, DynamoDB requests per call`,
          value: `${percentile(times, 50).toFixed(1)} / ${p95.toFixed(1)} ms, ${perCall.toFixed(1)} requests`,
          budget: "p95 < 150 ms, < 10 requests",
          ok: p95 < 150 && perCall < 10,
        });
      }
    } finally {
      await server.close();
    }
  } finally {
    await dynamo.stop();
  }
}
