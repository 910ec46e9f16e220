/**
 * `npm run seed -- --members 10000`: adds a large organisation (one gym, a weekly price, N members
 * with saved cards and active subscriptions) to the local database `npm start` runs
 * (DYNAMODB_ENDPOINT, default http://localhost:8000), with a progress bar. Used for volume (lists,
 * exports, the payments page) and by the bench. The simulated saved cards live in this process, so
 * charging these members is done by the bench (`npm run bench -- --billing`), which seeds and
 * charges in one process.
 */
import { SingleBar } from "cli-progress";

const args = process.argv.slice(2);
const at = args.indexOf("--members");
const members = at >= 0 ? Number(args[at + 1]) : 10_000;
if (!Number.isInteger(members) || members < 1) {
  console.error("Usage: npm run seed -- --members 10000");
  process.exit(1);
}
process.env.APP_ENV ??= "local";
process.env.TABLE_NAME ??= "gym-local";
process.env.DYNAMODB_ENDPOINT ??= `http://localhost:${process.env.DYNAMODB_PORT ?? 8000}`;
process.env.LOG_LEVEL ??= "warn";

// The start-up point of this process: the simulated providers and every reaction.
const { createCore } = await import("@gym/core/core");
const { localProviders } = await import("@gym/core/simulators/index");
createCore({ providers: localProviders() });
const { seedBulkOrganisation } = await import("./seed/bulk");
const { aucklandDate, addDays } = await import("@gym/core/billing/calendar");
const bar = new SingleBar({ format: " seeding [{bar}] {value}/{total} members", hideCursor: true });
bar.start(members, 0);
try {
  const seeded = await seedBulkOrganisation({
    members,
    firstDue: addDays(aucklandDate(new Date()), 1),
    onProgress: (done) => bar.update(done),
  });
  bar.stop();
  console.log(
    `\nSeeded ${seeded.members} members in organisation ${seeded.organisation_id}.\nSign in on the staff site as ${seeded.admin_email} (password: demo-password) to see it.`,
  );
  process.exit(0);
} catch (error) {
  bar.stop();
  const message = (error as Error).message;
  console.error(
    /ECONNREFUSED|connect/i.test(message)
      ? `Could not reach DynamoDB Local at ${process.env.DYNAMODB_ENDPOINT}: start the app first (npm start).`
      : message,
  );
  process.exit(1);
}
