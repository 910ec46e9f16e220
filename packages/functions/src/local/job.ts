/**
 * `npm run job -- <billing-run|payment-retries|grace-expiry|payment-polling|reconciliation|payout-catch-up|member-notices> [--now ISO]`: runs a
 * scheduled job now against the local database (the one `npm start` runs, DYNAMODB_ENDPOINT,
 * default http://localhost:8000) with a progress bar, and prints its summary. Without `--now` it
 * runs at the business clock (`/api/dev/clock`), which is stored in the table, so it agrees with
 * the running app. Charges run in this process with the same concurrency bound as the app's.
 *
 * `npm run job -- backfill-member-profiles`: the one-off move of personal details off the user
 * record (core user/profile-backfill.ts; docs/data-model.md "Personal details"); prints its counts.
 *
 * `npm run job -- backfill-index-keys`: writes the attributes of the indexes added for scale on
 * items written before them (core jobs/index-backfill.ts; docs/data-model.md "Indexes added for
 * scale"); prints its counts.
 *
 * `npm run job -- recount-scheduled`: the one-off recount of the scheduled-payment counters of
 * every organisation from its payments, after the deploy that adds them (core rollup/backfill.ts
 * `recountScheduledRollups`; docs/data-model.md "Rollups"); prints its counts.
 */
import { SingleBar } from "cli-progress";

const [job, ...rest] = process.argv.slice(2);
const jobs = [
  "billing-run",
  "payment-retries",
  "grace-expiry",
  "payment-polling",
  "reconciliation",
  "payout-catch-up",
  "member-notices",
] as const;
type Job = (typeof jobs)[number];

const BACKFILL = "backfill-member-profiles";
const INDEX_BACKFILL = "backfill-index-keys";
const SCHEDULED_RECOUNT = "recount-scheduled";

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(
    `Usage: npm run job -- <${[...jobs, BACKFILL, INDEX_BACKFILL, SCHEDULED_RECOUNT].join("|")}> [--now 2026-12-01T09:00:00+13:00]`,
  );
  process.exit(1);
}

if (![BACKFILL, INDEX_BACKFILL, SCHEDULED_RECOUNT].includes(job) && !jobs.includes(job as Job))
  usage(job ? `Unknown job "${job}".` : undefined);
const nowFlag = rest.indexOf("--now");
const nowText = nowFlag >= 0 ? rest[nowFlag + 1] : undefined;
const now = nowText ? new Date(nowText) : undefined;
if (nowText && Number.isNaN(now?.getTime())) usage(`--now ${nowText} is not a date and time.`);

process.env.APP_ENV ??= "local";
process.env.TABLE_NAME ??= "gym-local";
process.env.DYNAMODB_ENDPOINT ??= `http://localhost:${process.env.DYNAMODB_PORT ?? 8000}`;
process.env.LOG_LEVEL ??= "warn";

if (job === BACKFILL) {
  const { backfillMemberProfiles } = await import("@gym/core/user/profile-backfill");
  const summary = await backfillMemberProfiles({
    onProgress: (s) => process.stdout.write(`\r ${BACKFILL}: ${s.users} people moved so far`),
  });
  console.log(`\n${BACKFILL}`);
  for (const [name, value] of Object.entries(summary)) console.log(`  ${name.padEnd(18)} ${value}`);
  process.exit(0);
}

if (job === INDEX_BACKFILL) {
  const { backfillIndexKeys } = await import("@gym/core/jobs/index-backfill");
  const summary = await backfillIndexKeys({
    onProgress: (s) => process.stdout.write(`\r ${INDEX_BACKFILL}: ${s.roles} roles read so far`),
  });
  console.log(`\n${INDEX_BACKFILL}`);
  for (const [name, value] of Object.entries(summary)) console.log(`  ${name.padEnd(18)} ${value}`);
  process.exit(0);
}

if (job === SCHEDULED_RECOUNT) {
  const { recountScheduledRollups } = await import("@gym/core/rollup/backfill");
  const summary = await recountScheduledRollups((done) =>
    process.stdout.write(`\r ${SCHEDULED_RECOUNT}: ${done} organisations so far`),
  );
  console.log(`\n${SCHEDULED_RECOUNT}`);
  for (const [name, value] of Object.entries(summary)) console.log(`  ${name.padEnd(18)} ${value}`);
  process.exit(0);
}

const { runJob } = await import("@gym/core/jobs/run");
// The app registers itself as the simulated providers' webhook destination (local runs).
await import("./app");

const bar = new SingleBar({
  format: ` ${job} [{bar}] {value} {label}`,
  barCompleteChar: "█",
  barIncompleteChar: "░",
  hideCursor: true,
});
let started = false;
try {
  const result = await runJob(job as Job, now, {
    onProgress(done, label) {
      if (!started) {
        bar.start(Math.max(done, 1), 0, { label: label ?? "" });
        started = true;
      }
      bar.setTotal(Math.max(done, bar.getTotal()));
      bar.update(done, { label: label ?? "" });
    },
  });
  if (started) bar.stop();
  console.log(
    `\n${job} at ${result.now} (${Date.parse(result.finishedAt) - Date.parse(result.startedAt)} ms)`,
  );
  for (const [name, value] of Object.entries(result.summary)) console.log(`  ${name.padEnd(14)} ${value}`);
  process.exit(0);
} catch (error) {
  if (started) bar.stop();
  const message = (error as Error).message;
  console.error(
    /ECONNREFUSED|connect/i.test(message)
      ? `Could not reach DynamoDB Local at ${process.env.DYNAMODB_ENDPOINT}: start the app first (npm start).`
      : message,
  );
  process.exit(1);
}
