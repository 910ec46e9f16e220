import type { BranchPort } from "../providers/branch/port";
import { ProviderError } from "../providers/errors";

/** Accepts keys shaped like Branch's (`key_live_…` / `key_test_…`) with a secret of `secret_…`. */
export function simulatedBranch(): BranchPort {
  return {
    mode: "simulated",
    async checkApp({ branchKey, branchSecret }) {
      await Promise.resolve();
      if (!/^key_(live|test)_\w+$/.test(branchKey) || !branchSecret.startsWith("secret_")) {
        throw new ProviderError(
          "branch",
          "Branch did not accept this key and secret.",
          "declined",
          "HTTP 401",
        );
      }
      return { app_id: `sim${branchKey.slice(-6)}`, app_name: "Simulated member app" };
    },
  };
}
