import { config } from "../../config";
import { providerMode } from "../errors";
import type { BranchPort } from "./port";
import { realBranch } from "./real";
import { simulatedBranch } from "./simulated";

export type { BranchApp, BranchPort } from "./port";

let adapter: BranchPort | undefined;

/** The app-link service for this process: simulated locally unless BRANCH_MODE=real. */
export function branchProvider(): BranchPort {
  adapter ??=
    providerMode("BRANCH", config.isLocal) === "simulated"
      ? simulatedBranch()
      : realBranch({ apiBase: config.optional("BRANCH_API_BASE") });
  return adapter;
}

export function setBranchProvider(next: BranchPort | undefined) {
  adapter = next;
}
