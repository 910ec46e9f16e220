#!/usr/bin/env node
/**
 * The JavaScript a site downloads before its first page can run: the entry chunk named in
 * dist/index.html plus every chunk it imports statically, gzipped. Fails when over budget.
 *
 *   node packages/web/scripts/initial-js-size.mjs web-staff:300 web-join:150   (budgets in kB)
 *
 * Run after `npm run build:web`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const STATIC_IMPORT = /(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g;

function initialChunks(app) {
  const dist = join(app, "dist");
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const entry = /<script[^>]+type="module"[^>]+src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${app}: no entry script in dist/index.html (build first)`);
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, "assets", file), "utf8");
    for (const match of code.matchAll(STATIC_IMPORT)) queue.push(match[1]);
  }
  return [...seen].map((file) => ({ file, gzip: gzipSync(readFileSync(join(dist, "assets", file))).length }));
}

let failed = false;
for (const arg of process.argv.slice(2)) {
  const [app, budget] = arg.split(":");
  const chunks = initialChunks(app);
  const total = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0) / 1000;
  const limit = Number(budget);
  const over = Number.isFinite(limit) && total > limit;
  failed ||= over;
  console.log(
    `${app}: ${total.toFixed(1)} kB gzip initial JS (${chunks.map((c) => `${c.file} ${(c.gzip / 1000).toFixed(1)}`).join(", ")})` +
      (Number.isFinite(limit) ? ` budget ${limit} kB ${over ? "OVER" : "ok"}` : ""),
  );
}
process.exit(failed ? 1 : 0);
