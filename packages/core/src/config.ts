/**
 * Configuration comes only from the environment. In AWS the Lambda entry copies the stage's
 * secrets into process.env first (functions/src/aws/secrets.ts); locally the launcher sets them.
 */
export type AppEnv = "local" | "test" | "aws";

function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

export const config = {
  get appEnv(): AppEnv {
    const value = env("APP_ENV");
    return value === "aws" || value === "test" ? value : "local";
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
  get cookieDomain(): string | undefined {
    return env("COOKIE_DOMAIN");
  },
  secret(name: "SESSION_SECRET" | "ENCRYPTION_KEY"): string {
    const value = env(name);
    if (value) return value;
    if (this.isLocal) return `local-development-${name.toLowerCase()}-not-for-production`;
    throw new Error(`${name} is not configured`);
  },
  optional(name: string): string | undefined {
    return env(name);
  },
};
