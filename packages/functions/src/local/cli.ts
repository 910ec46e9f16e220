/**
 * The local runtime: `npm start` (built sites), `npm run dev` (Vite dev servers with hot
 * reload). Started by bootstrap.mjs once dependencies are installed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { relative, resolve } from "node:path";
import { ensureTable, startDynamoLocal } from "./database";

const root = resolve(import.meta.dirname, "../../../..");
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const ports = {
  staff: port("STAFF_PORT", 3000),
  join: port("JOIN_PORT", 3001),
  api: port("API_PORT", 3100),
  dynamo: port("DYNAMODB_PORT", 8000),
};

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<void>((done, fail) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.once("exit", (code) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}

async function buildSites() {
  console.log("Building the staff and join sites…");
  await run("npm", ["run", "build", "--silent", "-w", "web-staff"]);
  await run("npm", ["run", "build", "--silent", "-w", "web-join"]);
}

async function main(command: string) {
  const inMemory = process.env.DYNAMODB_IN_MEMORY === "1";
  // Where DynamoDB Local keeps its data when not in memory (DYNAMODB_DIR: the e2e tests start
  // products on copies of one seeded folder, tests/support/product.ts).
  const dataFolder = resolve(root, process.env.DYNAMODB_DIR ?? ".data/dynamodb");
  // Local behaviour only when asked for by name (core/config.ts fails closed to production).
  if (process.env.APP_ENV !== "test") process.env.APP_ENV = "local";
  process.env.TABLE_NAME ??= "gym-local";
  process.env.STAFF_URL ??= `http://localhost:${ports.staff}`;
  process.env.JOIN_URL ??= `http://localhost:${ports.join}`;
  process.env.LOG_LEVEL ??= "warn";

  if (command === "start" && process.env.SKIP_WEB_BUILD !== "1") await buildSites();

  const dynamo = await startDynamoLocal({
    port: ports.dynamo,
    dbPath: inMemory ? undefined : dataFolder,
  });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  const created = await ensureTable(dynamo.endpoint, process.env.TABLE_NAME);

  // Imported after the environment is set: the app reads its configuration lazily.
  const { seedIfEmpty } = await import("./seed/index");
  const { demoSignIns, DEMO_PASSWORD } = await import("./seed/identity");
  const { serveApi, serveSite } = await import("./server");
  const { startScheduler } = await import("./scheduler");
  const seeded = await seedIfEmpty();

  const closers: (() => Promise<void> | void)[] = [];
  const children: ChildProcess[] = [];
  if (command === "start") {
    const staff = await serveSite(resolve(root, "web-staff/dist"), ports.staff, "staff");
    const join = await serveSite(resolve(root, "web-join/dist"), ports.join, "join");
    closers.push(staff.close, join.close);
  } else {
    const api = await serveApi(ports.api);
    closers.push(api.close);
    for (const [workspace, sitePort] of [
      ["web-staff", ports.staff],
      ["web-join", ports.join],
    ] as const) {
      children.push(
        spawn("npx", ["vite", "--port", String(sitePort), "--strictPort"], {
          cwd: resolve(root, workspace),
          stdio: "inherit",
          env: { ...process.env, API_URL: `http://localhost:${ports.api}` },
        }),
      );
    }
  }
  const scheduler = startScheduler();

  const line = "─".repeat(64);
  console.log(`\n${line}`);
  console.log(" Gym platform is running");
  console.log(`   Staff site:  http://localhost:${ports.staff}`);
  console.log(`   Join site:   http://localhost:${ports.join}`);
  console.log(`   API health:  http://localhost:${ports.staff}/api/health`);
  console.log(`   Mailbox:     http://localhost:${ports.staff}/dev/mail  (sign-in codes arrive here)`);
  console.log(`   Metrics:     http://localhost:${ports.staff}/api/dev/metrics  (what CloudWatch would get)`);
  console.log(
    `   Database:    DynamoDB Local ${dynamo.endpoint} ${inMemory ? "(in memory)" : `(${relative(root, dataFolder)})`}`,
  );
  console.log(
    `   ${created ? "Created the table." : "Table exists."} ${seeded ? "Seeded demo data." : "Demo data kept."}`,
  );
  console.log(`\n Demo sign-ins (password: ${DEMO_PASSWORD})`);
  for (const person of demoSignIns) console.log(`   ${person.email.padEnd(22)} ${person.who}`);
  const { localJoinLinks } = await import("./join-links");
  console.log("\n Join links (a member signs up from their gym's link)");
  for (const gym of await localJoinLinks(process.env.JOIN_URL!))
    console.log(`   ${`${gym.name}:`.padEnd(28)} ${gym.url}`);
  console.log(`\n Press Ctrl-C to stop.\n${line}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    scheduler.stop();
    for (const child of children) child.kill("SIGTERM");
    await Promise.allSettled(closers.map((close) => close()));
    await dynamo.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.on("SIGHUP", stop);
}

main(process.argv[2] ?? "start").catch((err) => {
  console.error(`\n${(err as Error).message}`);
  process.exit(1);
});
