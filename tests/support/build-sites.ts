import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/**
 * Builds both sites once for a test run: the infra project checks what the build ships, and each
 * e2e file then starts the product on it (SKIP_WEB_BUILD=1). A whole `npm test` runs the two
 * projects in separate runs and sets E2E_SKIP_BUILD=1 for the second, so the sites build once.
 */
export default function buildSites() {
  if (process.env.E2E_SKIP_BUILD === "1") return;
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
