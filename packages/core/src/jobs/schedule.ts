/**
 * The scheduled jobs and how often each runs. One source for both EventBridge (infra/jobs.ts)
 * and the local in-process scheduler (functions/src/local/scheduler.ts).
 *
 * Every job is idempotent and safe to run twice at once, so running often is cheap insurance:
 * a run that finds nothing due does nothing.
 */
export const jobSchedule = {
  "billing-run": {
    description: "Create upcoming payments and charge the ones that fall due today (Pacific/Auckland).",
    everyMinutes: 60,
  },
  "payment-retries": {
    description: "Retry failed payments whose retry time has come, inside the grace period.",
    everyMinutes: 60,
  },
  "grace-expiry": {
    description: "Cancel subscriptions whose grace period ended with debt still owing; revoke door access.",
    everyMinutes: 60,
  },
  "payment-polling": {
    description:
      "Ask the providers for the status of payments still in flight (webhooks are not guaranteed).",
    everyMinutes: 15,
  },
  reconciliation: {
    description:
      "Check each payment settled since the last run with Stripe and Akahu (status, amount); record every mismatch.",
    // Twice a day, so its heartbeat alarm (twice the cadence, at most 24 h) has a real margin.
    everyMinutes: 12 * 60,
  },
  "payout-catch-up": {
    description:
      "Record each connected gym's Stripe payouts of the last 10 days whose payout.paid event never came (once each).",
    // Twice a day, so its heartbeat alarm (twice the cadence, at most 24 h) has a real margin.
    everyMinutes: 12 * 60,
  },
  "member-notices": {
    description:
      "Email payment reminders before each charge and card-expiry notices 14 and 3 days before a charge (each once).",
    everyMinutes: 60,
  },
  "door-access": {
    description:
      "Re-sync door access whose standing changes with time (a pause starting or ending, a cancellation taking effect).",
    everyMinutes: 60,
  },
  outbox: {
    description:
      "Deliver the outbox's events still undelivered (a process that died after its commit, a handler that failed).",
    // The table's stream delivers within seconds in AWS; this is the net under it (and, locally, the only one).
    everyMinutes: 1,
  },
} as const;

export type JobName = keyof typeof jobSchedule;
export const jobNames = Object.keys(jobSchedule) as JobName[];
