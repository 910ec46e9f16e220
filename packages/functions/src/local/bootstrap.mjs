#!/usr/bin/env node
// The entry of `npm start`, `npm run dev`, `npm test`, `npm run bench`, `npm run job`, `npm run seed` and `npm run simulate`. Plain JavaScript with
// no dependencies, because on a fresh clone nothing is installed yet: it gets Node.js 22 when the
// system's is older, installs what is missing, checks for Java, then hands over to the TypeScript runtime.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const [command = "start", ...rest] = process.argv.slice(2);

function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

/** Runs a child to its end with this process's stop signals passed on, then exits with its code. */
function handOver(file, args, options) {
  const child = spawn(file, args, { cwd: root, stdio: "inherit", ...options });
  // Pass stop signals on: Ctrl-C in a terminal reaches the child too (same process group), and the
  // child ignores a second one; a signal sent to this process alone (a supervisor, a test) must not
  // leave the child and its DynamoDB Local running. Then wait for the child to stop cleanly.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// Node.js 22 LTS, as Lambda runs (nodejs22.x). A system Node that is older is only the launcher:
// Node 22 comes from the npm registry's `node` package (it ships the binary) into `.tools/`, once,
// and everything from here on (npm ci, the tests, the product, every child) runs on it.
const NODE_MAJOR = 22;
if (Number(process.versions.node.split(".")[0]) < NODE_MAJOR) {
  const bin = resolve(root, ".tools/node_modules/.bin");
  const node = resolve(bin, "node");
  const version = () => spawnSync(node, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
  if (!existsSync(node) || !version().startsWith(`v${NODE_MAJOR}.`)) {
    console.log(
      `Node.js ${process.versions.node} is older than ${NODE_MAJOR}: installing Node.js ${NODE_MAJOR} from the npm registry into .tools/ (once)…`,
    );
    const install = spawnSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--prefix",
        ".tools",
        `node@${NODE_MAJOR}`,
      ],
      { cwd: root, stdio: "inherit" },
    );
    if (install.status !== 0 || !version().startsWith(`v${NODE_MAJOR}.`))
      fail(
        `Installing Node.js ${NODE_MAJOR} failed (see above). Install Node.js ${NODE_MAJOR} LTS and run this again.`,
      );
  }
  console.log(`Using Node.js ${version()} from .tools/ (the system has ${process.versions.node}).`);
  handOver(node, [fileURLToPath(import.meta.url), command, ...rest], {
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  });
} else {
  main().catch((error) => fail(String(error?.stack ?? error)));
}

/**
 * Runs a Node child to its end (its output shown as it comes, or kept to print later), with stop
 * signals passed on as handOver does.
 */
function runChild(args, env, { capture = false } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const pass = (signal) => child.kill(signal);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, pass);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((done) =>
    child.once("close", (code, signal) => {
      for (const name of ["SIGINT", "SIGTERM", "SIGHUP"]) process.off(name, pass);
      done({ status: code ?? (signal ? 1 : 0), output, ended: Date.now() });
    }),
  );
}

function dependenciesCurrent() {
  const marker = resolve(root, "node_modules/.package-lock.json");
  if (!existsSync(marker)) return false;
  return statSync(marker).mtimeMs >= statSync(resolve(root, "package-lock.json")).mtimeMs - 1000;
}

async function main() {
  if (!dependenciesCurrent()) {
    console.log("Installing dependencies (npm ci)…");
    const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
    if (install.status !== 0) fail("Installing dependencies failed (see above).");
  }

  const javaMissing = spawnSync("java", ["-version"], { stdio: "ignore" }).status !== 0;
  if (javaMissing && command !== "bench" && command !== "job") {
    fail(
      "Java is needed to run DynamoDB Local (the real database engine) but `java` was not found.\n" +
        "Install a Java 17+ runtime, e.g. on Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless",
    );
  }

  const env = {
    ...process.env,
    // Local behaviour is asked for by name: core's configuration treats a missing APP_ENV as
    // production. Tests run as "test" (vitest.config.ts sets it too, for direct runs).
    ...(command === "start" || command === "dev" ? { APP_ENV: "local" } : {}),
    ...(command === "test" ? { APP_ENV: "test" } : {}),
    SST_TELEMETRY_DISABLED: "1",
    AWS_EC2_METADATA_DISABLED: "true",
    // Node's on-disk compile cache for every Node process from here (the tests' workers, the
    // products the e2e files start, the entries' fresh processes): a module's compiled code is
    // read back instead of compiled again (docs/performance.md "Suite time", ninth round).
    NODE_COMPILE_CACHE:
      process.env.NODE_COMPILE_CACHE ?? resolve(root, "node_modules/.cache/node-compile-cache"),
  };
  const tsx = ["--import", "tsx"];
  const plans = {
    start: ["node", [...tsx, "packages/functions/src/local/cli.ts", "start", ...rest]],
    dev: ["node", [...tsx, "packages/functions/src/local/cli.ts", "dev", ...rest]],
    test: ["node", ["node_modules/vitest/vitest.mjs", "run", ...rest]],
    bench: ["node", [...tsx, "tests/bench/run.ts", ...rest]],
    job: ["node", [...tsx, "packages/functions/src/local/job.ts", ...rest]],
    seed: ["node", [...tsx, "packages/functions/src/local/seed-cli.ts", ...rest]],
    simulate: ["node", [...tsx, "tests/sim/cli.ts", ...rest]],
  };
  const plan = plans[command];
  if (!plan) fail(`Unknown command "${command}". Use one of: ${Object.keys(plans).join(", ")}.`);

  // A whole `npm test` also checks the code statically (Biome lint and format, TypeScript), beside
  // the first test run (the checks are mostly one core's work, the tests wait on DynamoDB Local
  // much of the time); their output is printed after it. `npm test -- <filter>` runs only the tests.
  if (command === "test" && rest.length === 0) {
    const checks = [
      ["Lint and format (Biome)", ["node_modules/@biomejs/biome/bin/biome", "check", "--colors=off", "."]],
      // Incremental: a developer's next run checks only what changed since (the same checks; the
      // build info is kept under node_modules/.cache, a fresh clone has none). One checker: beside
      // the tests the cores are full, and TypeScript 7's four checkers each check the shared
      // types again (about twice the CPU: docs/performance.md "Suite time", ninth round).
      [
        "Types (tsc)",
        [
          "node_modules/typescript/bin/tsc",
          "--noEmit",
          "-p",
          ".",
          "--checkers",
          "1",
          "--incremental",
          "--tsBuildInfoFile",
          "node_modules/.cache/tsc/tsconfig.tsbuildinfo",
        ],
      ],
    ].map(([label, args]) => {
      const started = Date.now();
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      return new Promise((done) =>
        child.once("close", (status) =>
          done({ label, status, output, seconds: (Date.now() - started) / 1000 }),
        ),
      );
    });
    // Two phases. First every project but e2e, one file more than the cores at a time (three on
    // two), with the static checks beside it. Then the browser tests, one file at a time, with the
    // billing simulation (one long file, tests/sim/simulate.test.ts) beside them: each e2e file
    // starts the whole product (or shares one) and drives Chromium, and sharing two cores with the
    // API tests' workers and their DynamoDB Local made pages miss their waits; the simulation is one
    // process and its DynamoDB Local, and waits on it much of the time. Every file runs once, with
    // the same filter rules.
    // The first run builds the sites (the infra project's global setup); the e2e run reuses them.
    // Each vitest run appends its files' durations here, and the ten slowest of all are printed
    // at the end (tests/support/slowest-reporter.ts, print-slowest.ts).
    env.TEST_DURATIONS_FILE = resolve(tmpdir(), `gym-test-durations-${process.pid}.jsonl`);
    rmSync(env.TEST_DURATIONS_FILE, { force: true });
    const simulation = "tests/sim/simulate.test.ts";
    console.log(`\n▶ Tests (vitest): every project but e2e, less ${simulation} (Biome and tsc beside it)`);
    const vitest = [plan[1][0], "run"];
    // One test file more than the cores (vitest's default is one fewer: one, on two): an API test
    // file spends much of its time waiting on DynamoDB Local, and the cores had room mid-phase (8 API
    // files on two cores: 85 s one at a time, 62 s two at a time; this whole phase with Biome and tsc
    // beside it, three at a time against two: wall 0.90, CPU 0.98, docs/performance.md).
    const workers = availableParallelism() + 1;
    const first = await runChild(
      [...vitest, "--project", "!e2e", "--exclude", simulation, `--maxWorkers=${workers}`],
      env,
    );
    let checksFailed = false;
    for (const check of await Promise.all(checks)) {
      console.log(`\n▶ ${check.label} (${check.seconds.toFixed(0)} s)`);
      process.stdout.write(check.output);
      if (check.status !== 0) {
        console.error(`${check.label} failed (see above).`);
        checksFailed = true;
      }
    }
    if (first.status !== 0) fail("Tests failed (see above).");
    if (checksFailed) fail("The static checks failed (see above).");
    env.E2E_SKIP_BUILD = "1";
    console.log(`\n▶ Tests (vitest): end to end, in Chromium (${simulation} beside it, its output after)`);
    const started = Date.now();
    const simulated = runChild([...vitest, "--project", "sim", simulation], env, { capture: true });
    const e2e = await runChild([...vitest, "--project", "e2e"], env);
    const sim = await simulated;
    console.log(`\n▶ Tests (vitest): ${simulation} (${((sim.ended - started) / 1000).toFixed(0)} s)`);
    process.stdout.write(sim.output);
    await runChild([...tsx, "tests/support/print-slowest.ts"], env);
    rmSync(env.TEST_DURATIONS_FILE, { force: true });
    if (e2e.status !== 0 || sim.status !== 0) fail("Tests failed (see above).");
    process.exit(0);
  }

  handOver(plan[0], plan[1], { env });
}
