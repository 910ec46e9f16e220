/**
 * Each Lambda entry (and each webhook receiver) imported first, in a fresh Node process: an
 * import cycle that only bites when a module is loaded before its partner (e.g. db/service ↔
 * providers/links: "Cannot access 'providerLinkEntity' before initialization") fails here, not in
 * AWS on a cold start.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { lambdaEntries, webhookModules } from "./entries";

const root = resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);

async function importFirst(path: string) {
  const url = pathToFileURL(resolve(root, path)).href;
  const script = `const m = await import(${JSON.stringify(url)}); console.log(JSON.stringify(Object.keys(m)));`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, APP_ENV: "test", LOG_LEVEL: "silent" },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as string[];
}

// Concurrent: each is its own process, mostly waiting on its module files being read.
describe.concurrent("every Lambda entry loads first in a fresh process", () => {
  it.each(Object.entries(lambdaEntries))("%s exports its handler", async (_name, path) => {
    expect(await importFirst(path)).toContain("handler");
  });

  it.each(Object.entries(webhookModules))("%s loads on its own", async (_name, path) => {
    expect((await importFirst(path)).length).toBeGreaterThan(0);
  });
});
