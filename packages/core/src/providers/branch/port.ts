/**
 * Branch, the app-link service (deep links into the gym's member app). A gym stores its Branch
 * app id, key and secret; saving them checks them against Branch. Link creation for member
 * emails is added here when the member app work needs it.
 */
export interface BranchApp {
  app_id: string;
  app_name: string;
}

export interface BranchPort {
  readonly mode: "real" | "simulated";
  /** Reads the app's settings with its key and secret; declines credentials Branch does not accept. */
  checkApp(input: { branchKey: string; branchSecret: string }): Promise<BranchApp>;
}
