import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
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
 * an in-memory DynamoDB Local and freshly seeded demo data. The sites were built once by the
 * e2e global setup.
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
  const [staff, join, dynamo, api] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    ["packages/functions/src/local/bootstrap.mjs", "start"],
    {
      cwd: root,
      env: {
        ...process.env,
        STAFF_PORT: String(staff),
        JOIN_PORT: String(join),
        DYNAMODB_PORT: String(dynamo),
        API_PORT: String(api),
        DYNAMODB_IN_MEMORY: "1",
        SKIP_WEB_BUILD: "1",
        LOG_LEVEL: "warn",
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
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));

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
    joinUrl: `http://localhost:${join}`,
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
