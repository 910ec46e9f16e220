import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildSites } from "./build-sites";

/**
 * Builds both sites once for the whole e2e run (build-sites.ts), and fails loudly when the
 * browser is missing: under CI a missing Chromium is a failure, never a skip. Then seeds the demo
 * data once (E2E_SEEDED_DATA: every product of the run starts on a copy of it) and launches the
 * one product the e2e files share (tests/support/e2e.ts, sharedProduct): without waiting for it,
 * so its start overlaps the first files; each file that uses it waits until its banner is out.
 * Stopped after the last file. Not when E2E_STAFF_URL names a product already running.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. End-to-end tests drive Debian's Chromium:\n` +
        "  sudo apt-get install -y chromium   (or set CHROMIUM_PATH)",
    );
  }
  await buildSites();
  if (process.env.E2E_STAFF_URL) {
    project.provide("e2eSharedProduct", null);
    return;
  }
  // Imported here: e2e.ts imports vitest's test API, which the setup needs only once it runs.
  const { launchProduct, SHARED_PRODUCT_FAILED } = await import("./product");
  // In memory (tmpfs) where there is one: DynamoDB Local writes its data folder on every write.
  const folder = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "gym-e2e-"));
  const outputFile = join(folder, "product.log");
  appendFileSync(outputFile, "");
  // The demo data, seeded once into a data folder by a product started for that and stopped; every
  // product of the run (the shared one, and each file's own) starts on a copy of it (product.ts
  // `seededCopy`) instead of seeding again.
  // (Its output is not the shared product's: the files wait for the banner in that.)
  const seededData = join(folder, "seeded-data");
  const seeding = await launchProduct({ DYNAMODB_IN_MEMORY: "0", DYNAMODB_DIR: seededData });
  try {
    await seeding.ready;
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  } finally {
    await seeding.product.stop();
  }
  process.env.E2E_SEEDED_DATA = seededData;
  const { product, ready } = await launchProduct({}, (chunk) => appendFileSync(outputFile, chunk));
  ready.catch((error) => appendFileSync(outputFile, `${SHARED_PRODUCT_FAILED}${String(error)}\n`));
  project.provide("e2eSharedProduct", {
    staffUrl: product.staffUrl,
    joinUrl: product.joinUrl,
    dynamoPort: product.dynamoPort,
    pid: product.pid,
    outputFile,
  });
  return async () => {
    await product.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}
