import { config } from "../../config";
import type { BranchPort } from "./port";
import { realBranch } from "./real";

export type { BranchApp, BranchPort } from "./port";

let adapter: BranchPort | undefined;

/** The real adapter from the stage's configuration: what every Lambda runs (and the default). */
export function productionBranch(): BranchPort {
  return realBranch({ apiBase: config.optional("BRANCH_API_BASE") });
}

let make: () => BranchPort = productionBranch;

/**
 * The app-link service for this process: the one its start-up point chose (`createCore`, core.ts),
 * made on first use; without one, the real adapter (fails closed).
 */
export function branchProvider(): BranchPort {
  adapter ??= make();
  return adapter;
}

/** The start-up point's choice (core.ts `createCore`): how this process makes its adapter. */
export function installBranch(next: () => BranchPort) {
  make = next;
  adapter = undefined;
}

export function setBranchProvider(next: BranchPort | undefined) {
  adapter = next;
}
