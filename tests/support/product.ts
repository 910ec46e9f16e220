import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { freePort } from "./free-port";

const root = resolve(import.meta.dirname, "../..");

export interface Product {
  staffUrl: string;
  joinUrl: string;
  dynamoPort: number;
  /** The process `npm start` runs (bootstrap.mjs). */
  pid: number;
  /** Resolves when that process has exited. */
  exited: Promise<number | null>;
  /** Everything the product printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the whole product the way `npm start` does (bootstrap → cli start), on free ports with
 * an in-memory DynamoDB Local and freshly seeded demo data (in the e2e run: a copy of the demo
 * data seeded once, `seededCopy`). The sites were built once by the e2e global setup.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const { product, ready } = await launchProduct(env);
  await ready;
  return product;
}

/**
 * Launches the product and answers at once: its ports are known before it is ready; `ready`
 * settles when it printed its banner (or rejects with what it printed). `onOutput` sees every
 * chunk it prints (the e2e global setup keeps the shared product's in a file).
 */
export async function launchProduct(
  env: Record<string, string> = {},
  onOutput?: (chunk: string) => void,
): Promise<{ product: Product; ready: Promise<void> }> {
  const [staff, joinPort, dynamo, api] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const seeded = seededCopy(env);
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    ["packages/functions/src/local/bootstrap.mjs", "start"],
    {
      cwd: root,
      env: {
        ...process.env,
        STAFF_PORT: String(staff),
        JOIN_PORT: String(joinPort),
        DYNAMODB_PORT: String(dynamo),
        API_PORT: String(api),
        DYNAMODB_IN_MEMORY: "1",
        SKIP_WEB_BUILD: "1",
        LOG_LEVEL: "warn",
        ...seeded,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so stop() can signal the whole group as Ctrl-C in a terminal does.
      detached: true,
    },
  );
  const take = (chunk: unknown) => {
    output += String(chunk);
    onOutput?.(String(chunk));
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => {
      if (seeded.DYNAMODB_DIR) rmSync(seeded.DYNAMODB_DIR, { recursive: true, force: true });
      done(code);
    }),
  );

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const ready = (async () => {
    // Seeding the demo data takes ~20 s alone; on a machine shared by many runs, much longer.
    const deadline = Date.now() + 180_000;
    while (!output.includes("Press Ctrl-C to stop")) {
      if (child.exitCode !== null) throw new Error(`The product exited (${child.exitCode}):\n${output}`);
      if (Date.now() > deadline) {
        signalGroup("SIGINT");
        throw new Error(`The product did not start within 180 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  ready.catch(() => {}); // the caller awaits it; never an unhandled rejection meanwhile
  const product: Product = {
    staffUrl: `http://localhost:${staff}`,
    joinUrl: `http://localhost:${joinPort}`,
    dynamoPort: dynamo,
    pid: child.pid!,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null) signalGroup("SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) signalGroup("SIGKILL");
    },
  };
  return { product, ready };
}

/**
 * A fresh copy of the seeded demo data the e2e global setup made once (E2E_SEEDED_DATA, a
 * DynamoDB Local data folder): a product started on it finds its data and skips the seed (most of
 * a product's start). Not when the caller chose the database itself, or outside the e2e run.
 */
function seededCopy(env: Record<string, string>): Record<string, string> {
  const template = process.env.E2E_SEEDED_DATA;
  if (!template || env.DYNAMODB_IN_MEMORY || env.DYNAMODB_DIR || !existsSync(template)) return {};
  const folder = mkdtempSync(join(dirname(template), "product-"));
  cpSync(template, folder, { recursive: true });
  return { DYNAMODB_IN_MEMORY: "0", DYNAMODB_DIR: folder };
}

/** What the e2e global setup tells each file of the product it started for them all. */
export interface SharedProductInfo {
  staffUrl: string;
  joinUrl: string;
  dynamoPort: number;
  pid: number;
  /** The file its output goes to; the banner line "Press Ctrl-C to stop" says it is ready. */
  outputFile: string;
}

/** Marks the shared product's output file when it failed to start (then the reason follows). */
export const SHARED_PRODUCT_FAILED = "\n[e2e] the shared product failed to start:\n";
