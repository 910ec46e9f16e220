// The start-up point of every API and database test file, as `npm start` has it: the simulated
// providers (dev only) and every reaction between layers (packages/core/src/core.ts).
import { createCore } from "../../packages/core/src/core";
import { localProviders } from "../../packages/core/src/simulators/index";

createCore({ providers: localProviders() });
