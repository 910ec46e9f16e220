/**
 * Configuration comes only from the environment. In AWS the Lambda entry copies the stage's
 * secrets into process.env first (functions/src/aws/secrets.ts); locally the launcher sets them.
 *
 * Fails closed: only `APP_ENV=local` (the launcher) and `APP_ENV=test` (the test runner) turn on
 * local behaviour (simulated providers, the dev mailbox, fixed development secrets). A missing
 * or mistyped APP_ENV behaves as production ("aws"): real providers, secrets required.
 */
export type AppEnv = "local" | "test" | "aws";

function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

export const config = {
  get appEnv(): AppEnv {
    const value = env("APP_ENV");
    return value === "local" || value === "test" ? value : "aws";
  },
  /** Local runs and tests use simulated providers, the outbox mailbox and a local files folder. */
  get isLocal(): boolean {
    return this.appEnv !== "aws";
  },
  get tableName(): string {
    return env("TABLE_NAME") ?? "gym-local";
  },
  get dynamoEndpoint(): string | undefined {
    return env("DYNAMODB_ENDPOINT");
  },
  get region(): string {
    return env("AWS_REGION") ?? "ap-southeast-2";
  },
  get stage(): string {
    return env("STAGE") ?? "local";
  },
  get uploadsBucket(): string | undefined {
    return env("UPLOADS_BUCKET");
  },
  get uploadsDir(): string {
    return env("UPLOADS_DIR") ?? ".data/uploads";
  },
  get emailFrom(): string {
    return env("EMAIL_FROM") ?? "Gym <no-reply@example.com>";
  },
  get staffUrl(): string {
    return env("STAFF_URL") ?? "http://localhost:3000";
  },
  get joinUrl(): string {
    return env("JOIN_URL") ?? "http://localhost:3001";
  },
  /** Stripe's publishable key for Stripe.js on the join site (public; only when Stripe is real). */
  get stripePublishableKey(): string | undefined {
    return env("STRIPE_PUBLISHABLE_KEY");
  },
  get cookieDomain(): string | undefined {
    return env("COOKIE_DOMAIN");
  },
  secret(name: RequiredSecret): string {
    const value = env(name);
    if (value) return value;
    if (this.isLocal) return `local-development-${name.toLowerCase()}-not-for-production`;
    throw new Error(`${name} is not configured`);
  },
  optional(name: string): string | undefined {
    return env(name);
  },
  /**
   * In production, the names of the secrets a function cannot run without that are not set
   * (empty locally: development values stand in). The Lambda entries refuse to start on any.
   */
  missingSecrets(names: readonly RequiredSecret[] = requiredSecrets): RequiredSecret[] {
    if (this.isLocal) return [];
    return names.filter((name) => !env(name));
  },
};

/** Secrets every deployed function needs. ORIGIN_SECRET: see security/headers.ts. */
export const requiredSecrets = ["SESSION_SECRET", "ENCRYPTION_KEY", "ORIGIN_SECRET"] as const;
export type RequiredSecret = (typeof requiredSecrets)[number];
