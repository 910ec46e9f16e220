import { existsSync } from "node:fs";
import buildSites from "./build-sites";

/**
 * Builds both sites once for the whole e2e run (build-sites.ts), and fails loudly when the browser is missing: under CI a missing
 * Chromium is a failure, never a skip.
 */
export default function setup() {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium was not found at ${chromiumPath()}. End-to-end tests drive Debian's Chromium:\n` +
        "  sudo apt-get install -y chromium   (or set CHROMIUM_PATH)",
    );
  }
  buildSites();
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}
