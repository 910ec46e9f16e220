import { runJob } from "@gym/core/jobs/run";
import type { JobName } from "@gym/core/jobs/schedule";
import { log } from "@gym/core/log";
import { loadSecrets, refuseWithoutSecrets } from "../aws/secrets";

/** Wraps a job as a Lambda handler invoked by its EventBridge schedule. */
export function jobHandler(job: JobName) {
  return async () => {
    await loadSecrets();
    refuseWithoutSecrets(["SESSION_SECRET", "ENCRYPTION_KEY"]);
    const result = await runJob(job);
    log.info("job finished", { ...result });
    return result;
  };
}
