import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./tests/support/sequencer";
import SlowestFilesReporter from "./tests/support/slowest-reporter";

/**
 * One runner for every test. Projects:
 *  - core:  pure domain rules (packages/core), no I/O.
 *  - api:   API and job integration tests against DynamoDB Local (one table per test file).
 *  - web:   React component tests in happy-dom.
 *  - sim:   the billing simulation and its reference model (tests/reference, tests/sim).
 *  - infra: SST/CDK synthesis asserted with aws-cdk-lib/assertions.
 *  - e2e:   the product started the way `npm start` does, driven in Debian's Chromium.
 */
export default defineConfig({
  test: {
    // The long-running files first (tests/support/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    // Vitest's own lines, then the ten slowest files (tests/support/slowest-reporter.ts).
    reporters: ["default", new SlowestFilesReporter()],
    projects: [
      {
        test: {
          name: "core",
          // Local behaviour must be asked for by name (packages/core/src/config.ts fails closed).
          env: { APP_ENV: "test" },
          environment: "node",
          // Pure rules: a worker's files share its module graph (each file imported core again:
          // docs/performance.md "Suite time", sixth round).
          isolate: false,
          include: ["packages/core/src/**/*.test.ts"],
          exclude: ["**/*.db.test.ts"],
        },
      },
      {
        test: {
          name: "api",
          // Local behaviour must be asked for by name (packages/core/src/config.ts fails closed).
          env: { APP_ENV: "test" },
          environment: "node",
          // A worker's files share its module graph (each file imported the API and core again);
          // each file has its own table, and tests/support/core-setup.ts puts back the process's
          // providers before it (docs/performance.md "Suite time", tenth round).
          isolate: false,
          include: ["packages/functions/src/**/*.test.ts", "packages/core/src/**/*.db.test.ts"],
          globalSetup: ["tests/support/dynamo-global-setup.ts"],
          // The start-up point (createCore with the simulated providers), as the local runtime has it.
          setupFiles: ["tests/support/core-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "web",
          // Local behaviour must be asked for by name (packages/core/src/config.ts fails closed).
          env: { APP_ENV: "test" },
          environment: "happy-dom",
          // A worker's files share its window and modules (each file set up happy-dom, React and
          // Mantine again: a quarter of the CPU); web-setup.ts puts back what a test may leave
          // (the DOM, storage, stubbed globals, timers, the URL) before the next.
          isolate: false,
          include: [
            "packages/web/src/**/*.test.tsx",
            "web-staff/src/**/*.test.tsx",
            "web-join/src/**/*.test.tsx",
          ],
          setupFiles: ["tests/support/web-setup.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // The billing simulation (docs/simulation.md): the reference model's rules, and a small
          // fixed-seed simulated run reconciled against it (it starts its own DynamoDB Local).
          name: "sim",
          env: { APP_ENV: "test" },
          environment: "node",
          include: ["tests/reference/**/*.test.ts", "tests/sim/**/*.test.ts"],
          // Bounds for a stuck run, with room for npm test's e2e run beside the simulation.
          testTimeout: 1_200_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "infra",
          environment: "node",
          include: ["tests/infra/**/*.test.ts"],
          // tests/infra/sites.test.ts checks what the build ships: the setup starts the build
          // beside the run's first files, and that file waits for it.
          globalSetup: ["tests/support/build-sites.ts"],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/support/e2e-global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A page's state is polled until it holds; 1 s (vitest's default) gave up on a phone page at
          // load ~35 where the next render had not landed yet. Only a failing poll waits this long.
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
