import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import buildSites from "./build-sites";

/**
 * Builds both sites once for the whole e2e run (build-sites.ts), and fails loudly when the
 * browser is missing: under CI a missing Chromium is a failure, never a skip. Then launches the
 * one product the e2e files share (tests/support/e2e.ts, sharedProduct): without waiting for it,
 * so its start (seeding the demo data, ~30-70 s) overlaps the first files; each file that uses it
 * waits until its banner is out. Stopped after the last file. Not when E2E_STAFF_URL names a
 * product already running.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. End-to-end tests drive Debian's Chromium:\n` +
        "  sudo apt-get install -y chromium   (or set CHROMIUM_PATH)",
    );
  }
  buildSites();
  if (process.env.E2E_STAFF_URL) {
    project.provide("e2eSharedProduct", null);
    return;
  }
  // Imported here: e2e.ts imports vitest's test API, which the setup needs only once it runs.
  const { launchProduct, SHARED_PRODUCT_FAILED } = await import("./product");
  const folder = mkdtempSync(join(tmpdir(), "gym-e2e-"));
  const outputFile = join(folder, "product.log");
  appendFileSync(outputFile, "");
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
