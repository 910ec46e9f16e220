import { jobNames } from "@gym/core/jobs/schedule";

/**
 * Every Lambda entry, as paths from the repo root: the API (infra/api.ts; it also serves the
 * provider webhooks), one per scheduled job, the charge queue's consumer and the outbox's stream consumer (infra/jobs.ts). `entries.test.ts` imports each
 * first in a fresh process; `npm run bench` times that import of each bundled entry.
 */
export const lambdaEntries: Record<string, string> = {
  api: "packages/functions/src/api/lambda.ts",
  ...Object.fromEntries(jobNames.map((job) => [`job ${job}`, `packages/functions/src/jobs/${job}.ts`])),
  // The charge queue's SQS consumer (infra/jobs.ts).
  "charge consumer": "packages/functions/src/jobs/charge-consumer.ts",
  // The table stream's consumer: delivers the outbox's events (infra/jobs.ts).
  "outbox stream": "packages/functions/src/jobs/outbox-stream.ts",
};

/** The webhook receivers the API routes to: each must load first on its own too. */
export const webhookModules: Record<string, string> = {
  "webhook stripe": "packages/functions/src/webhooks/stripe.ts",
  "webhook akahu": "packages/functions/src/webhooks/akahu.ts",
  "webhook kisi": "packages/functions/src/webhooks/kisi.ts",
};
