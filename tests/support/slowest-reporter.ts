import { appendFileSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export interface FileDuration {
  file: string;
  project: string;
  ms: number;
}

/** The ten slowest of some files' durations, as lines to print. */
export function slowestLines(durations: FileDuration[], count = 10): string[] {
  return [...durations]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((d) => `${(d.ms / 1000).toFixed(1).padStart(7)} s  ${d.project.padEnd(5)}  ${d.file}`);
}

/** Every duration appended to a durations file (one JSON array a line, one line a vitest run). */
export function readDurations(file: string): FileDuration[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => JSON.parse(line) as FileDuration[]);
}

export function printSlowest(durations: FileDuration[]) {
  if (durations.length < 2) return;
  console.log(`\nThe ten slowest test files:\n${slowestLines(durations).join("\n")}`);
}

/**
 * Prints the ten slowest test files at the end of a run (each file's setup, import and tests, as
 * vitest's own line for it). Under a whole `npm test` (several vitest runs: bootstrap.mjs) each run
 * appends its durations to TEST_DURATIONS_FILE instead, and bootstrap.mjs prints the ten slowest of
 * all once every run has ended (tests/support/print-slowest.ts).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const durations: FileDuration[] = modules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name,
        ms: diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration,
      };
    });
    const file = process.env.TEST_DURATIONS_FILE;
    if (file) appendFileSync(file, `${JSON.stringify(durations)}\n`);
    else printSlowest(durations);
  }
}
