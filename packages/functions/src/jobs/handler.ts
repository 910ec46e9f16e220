import { createCore, productionProviders } from "@gym/core/core";
import { runJob } from "@gym/core/jobs/run";
import type { JobName } from "@gym/core/jobs/schedule";
import { loadSecrets, refuseWithoutSecrets } from "../aws/secrets";

/** Wraps a job as a Lambda handler invoked by its EventBridge schedule. */
export function jobHandler(job: JobName) {
  // The start-up point: the real providers and every reaction, before the first run.
  createCore({ providers: productionProviders() });
  return async () => {
    await loadSecrets();
    refuseWithoutSecrets(["SESSION_SECRET", "ENCRYPTION_KEY"]);
    // runJob logs the run (with its request id) and emits its metrics.
    return runJob(job);
  };
}
