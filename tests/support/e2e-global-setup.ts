import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildSites } from "./build-sites";

/**
 * Builds both sites once for the whole e2e run (build-sites.ts), and fails loudly when the
 * browser is missing: under CI a missing Chromium is a failure, never a skip. Then starts the
 * run's products (product-pool.ts): seeds the demo data once (E2E_SEEDED_DATA: every product of
 * the run starts on a copy of it), launches the one product the e2e files share (tests/support/e2e.ts,
 * sharedProduct) without waiting for it, so its start overlaps the first files (each file that
 * uses it waits until its banner is out), and keeps products started ahead for the files that
 * need their own (ownProduct). All stopped after the last file. Not when E2E_STAFF_URL names a
 * product already running.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. End-to-end tests drive Debian's Chromium headless shell:\n` +
        "  sudo apt-get install -y chromium-headless-shell   (or set CHROMIUM_PATH)",
    );
  }
  await buildSites();
  if (process.env.E2E_STAFF_URL) {
    project.provide("e2eSharedProducts", []);
    project.provide("e2eProductPool", null);
    return;
  }
  // Imported here: e2e.ts imports vitest's test API, which the setup needs only once it runs.
  const { startProductPool } = await import("./product-pool");
  // In memory (tmpfs) where there is one: DynamoDB Local writes its data folder on every write.
  const folder = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "gym-e2e-"));
  let pool: Awaited<ReturnType<typeof startProductPool>>;
  try {
    // One shared product (the files run one at a time), and two products started ahead (eight
    // files have their own, some of them short and back to back), no more than the files ask for.
    pool = await startProductPool(folder, {
      shared: 1,
      spares: 2,
      wanted: await filesWithOwnProduct(project),
    });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  project.provide("e2eSharedProducts", pool.shared);
  project.provide("e2eProductPool", folder);
  return async () => {
    await pool.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}

/**
 * How many of the project's files ask for a product of their own (`{ own: true }` or
 * `ownProduct(`, read from their source): the pool starts no more unless a file waits for one.
 */
async function filesWithOwnProduct(project: TestProject): Promise<number> {
  const { testFiles } = await project.globTestFiles();
  return testFiles.filter((file) => /\{ own: true \}|ownProduct\(/.test(readFileSync(file, "utf8"))).length;
}

/**
 * The browser the end-to-end tests drive: Debian's `chromium-headless-shell`, Chromium's own
 * headless build of the same version (Blink and V8 as the full browser; what Playwright runs for
 * headless tests by default since 1.49). About three quarters of the full browser's CPU for the same
 * pages (docs/performance.md "Suite time", ninth round). CHROMIUM_PATH names another.
 */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
}

/**
 * The full browser, as a person runs it (Debian's `chromium`): for what measures a person's wait
 * (the bench's page load), not the tests. CHROMIUM_PATH names another.
 */
export function fullChromiumPath() {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}
