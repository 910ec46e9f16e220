import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

const root = resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    /** A file that says "built", or why the build failed, once the infra project's build ends. */
    sitesBuildStatus: string;
  }
}

/**
 * Builds both sites once for a test run, side by side: the infra project checks what the build
 * ships, and each e2e file then starts the product on it (SKIP_WEB_BUILD=1). A whole `npm test`
 * runs the two projects in separate runs and sets E2E_SKIP_BUILD=1 for the second, so the sites
 * build once. Each build's output is shown only when it fails.
 */
export async function buildSites(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD === "1") return;
  await Promise.all(["web-staff", "web-join"].map(build));
}

function build(workspace: string): Promise<void> {
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundles.
  const child = spawn("npm", ["run", "build", "--silent", "-w", workspace], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((done, failed) => {
    child.once("error", failed);
    child.once("close", (status) =>
      status === 0 ? done() : failed(new Error(`Building ${workspace} failed:\n${output}`)),
    );
  });
}

/**
 * The infra project's global setup: starts the build and returns at once. A global setup holds
 * back every file of the run, and only tests/infra/sites.test.ts reads the build: it waits for it
 * (`sitesBuilt`). The run ends only once the build has (the e2e run after it uses the build).
 */
export default function setup(project: TestProject) {
  const folder = mkdtempSync(join(tmpdir(), "gym-sites-"));
  const status = join(folder, "status");
  // Written whole, then renamed: a reader never sees it half written.
  const say = (text: string) => {
    writeFileSync(`${status}.part`, text);
    renameSync(`${status}.part`, status);
  };
  const building = buildSites().then(
    () => say("built"),
    (error: Error) => say(error.message),
  );
  project.provide("sitesBuildStatus", status);
  return async () => {
    await building;
    rmSync(folder, { recursive: true, force: true });
  };
}

/** Waits until the infra project's build has ended; throws what failed when it failed. */
export async function sitesBuilt(status: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(status)) {
    if (Date.now() > deadline) throw new Error(`The sites were not built within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const said = readFileSync(status, "utf8");
  if (said !== "built") throw new Error(said);
}
