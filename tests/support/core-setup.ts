// The start-up point of every API and database test file, as `npm start` has it: the simulated
// providers (dev only) and every reaction between layers (packages/core/src/core.ts).
//
// A worker's API files share one process (vitest.config.ts: no per-file isolation), so this runs
// before each file and puts back what a file before it may have left in the process: the
// providers (createCore installs them again, dropping a file's stand-ins), and the simulated
// providers' stores, pending settlements and chaos. Each file has its own table (tests/support/api.ts),
// which holds the business clock.
import { createCore } from "../../packages/core/src/core";
import { clearRecentMetrics } from "../../packages/core/src/metrics";
import { localProviders } from "../../packages/core/src/simulators/index";
import { resetSimulatedProviders } from "../../packages/core/src/simulators/simulation";

createCore({ providers: localProviders() });
resetSimulatedProviders();
clearRecentMetrics();
