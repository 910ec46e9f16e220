import { ProviderError } from "../errors";
import type { BranchPort } from "./port";

/** The real app-link service over Branch's REST API (`GET /v1/app/{branch_key}?branch_secret=`). */
export function realBranch(options: { apiBase?: string } = {}): BranchPort {
  const base = options.apiBase ?? "https://api2.branch.io";
  return {
    mode: "real",
    async checkApp({ branchKey, branchSecret }) {
      const url = new URL(`/v1/app/${encodeURIComponent(branchKey)}`, base);
      url.searchParams.set("branch_secret", branchSecret);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { Accept: "application/json" },
          signal: AbortSignal.timeout(15_000),
        });
      } catch (error) {
        throw new ProviderError(
          "branch",
          "Branch could not be reached. Please try again.",
          "unavailable",
          (error as Error).message,
        );
      }
      if (response.status >= 400 && response.status < 500) {
        throw new ProviderError(
          "branch",
          "Branch did not accept this key and secret.",
          "declined",
          `HTTP ${response.status}`,
        );
      }
      if (!response.ok)
        throw new ProviderError(
          "branch",
          "Branch could not be reached. Please try again.",
          "unavailable",
          `HTTP ${response.status}`,
        );
      const app = (await response.json()) as {
        id?: string | number;
        app_id?: string | number;
        app_name?: string;
      };
      return { app_id: String(app.app_id ?? app.id ?? ""), app_name: app.app_name ?? "" };
    },
  };
}
