import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/**
 * Builds both sites once for the whole e2e run (each test file then starts the product with
 * SKIP_WEB_BUILD=1), and fails loudly when the browser is missing: under CI a missing
 * Chromium is a failure, never a skip.
 */
export default function setup() {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. End-to-end tests drive Debian's Chromium:\n` +
        "  sudo apt-get install -y chromium   (or set CHROMIUM_PATH)",
    );
  }
  if (process.env.E2E_SKIP_BUILD !== "1") {
    for (const workspace of ["web-staff", "web-join"]) {
      // Vitest sets NODE_ENV=test, which would make Vite build React's development bundles.
      const build = spawnSync("npm", ["run", "build", "--silent", "-w", workspace], {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, NODE_ENV: "production" },
      });
      if (build.status !== 0) throw new Error(`Building ${workspace} failed`);
    }
  }
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}
