/**
 * Deploy-time settings, read from the environment of `sst deploy` (SST also loads `.env.<stage>` at the
 * repository root, which is the easiest place to keep them per stage). Nothing here is a secret: secrets
 * live in SSM through `Config.Secret` (see infra/secrets.ts and docs/deploy.md).
 */
export interface DeploySettings {
  /** Custom host of the staff back-office, e.g. `staff.example.nz` (optional). */
  staffDomain?: string;
  /** Custom host of the member join site, e.g. `join.example.nz` (optional). */
  joinDomain?: string;
  /** Route 53 hosted zone holding the custom hosts; defaults to the parent of each host. */
  hostedZone?: string;
  /**
   * ARN of an ACM certificate in us-east-1 covering both hosts. When set, DNS is managed outside
   * Route 53: no zone lookup, no records; point CNAMEs at the distributions yourself.
   */
  certificateArn?: string;
  /** Sender of every email, e.g. `Kia Ora Gym <no-reply@example.nz>`. */
  emailFrom?: string;
  /** The SES identity allowed to send: the sender's domain unless set (an address or a domain). */
  sesIdentity?: string;
  /** Parent domain for the session cookie so one sign-in serves both hosts. */
  cookieDomain?: string;
  /** Stripe's publishable key (`pk_…`, public) for Stripe.js's card element on the join site. */
  stripePublishableKey?: string;
  /** Who gets the stage's alarms: email addresses subscribed to its alarm topic (docs/operations.md). */
  alarmEmails: string[];
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** The bare address inside `Name <address>`, or the value itself. */
export function emailAddress(from: string): string {
  const match = /<([^>]+)>/.exec(from);
  return (match ? match[1] : from).trim();
}

/**
 * The parent both hosts sit directly under (`staff.gym.nz`, `join.gym.nz` -> `gym.nz`), if any. Only
 * siblings count: a looser "common suffix" could be a public suffix (`a.co.nz`, `b.co.nz` -> `co.nz`),
 * where browsers reject the cookie outright.
 */
export function sharedParentDomain(a: string, b: string): string | undefined {
  const parent = (host: string) => host.toLowerCase().split(".").slice(1).join(".");
  const shared = parent(a);
  return shared === parent(b) && shared.includes(".") ? shared : undefined;
}

export function deploySettings(env: Env = process.env): DeploySettings {
  const staffDomain = read(env, "STAFF_DOMAIN");
  const joinDomain = read(env, "JOIN_DOMAIN");
  const emailFrom = read(env, "EMAIL_FROM");
  const sesIdentity =
    read(env, "SES_IDENTITY") ?? (emailFrom ? emailAddress(emailFrom).split("@")[1] : undefined);
  const cookieDomain =
    read(env, "COOKIE_DOMAIN") ??
    (staffDomain && joinDomain ? sharedParentDomain(staffDomain, joinDomain) : undefined);
  return {
    staffDomain,
    joinDomain,
    hostedZone: read(env, "HOSTED_ZONE"),
    certificateArn: read(env, "CERTIFICATE_ARN"),
    emailFrom,
    sesIdentity,
    cookieDomain,
    stripePublishableKey: read(env, "STRIPE_PUBLISHABLE_KEY"),
    alarmEmails: (read(env, "ALARM_EMAIL") ?? "")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean),
  };
}

/** Stages whose data must survive `sst remove` (table and uploads are retained, not deleted). */
export function isProtectedStage(stage: string, env: Env = process.env): boolean {
  const list = read(env, "PROTECTED_STAGES") ?? "prod,production";
  return list
    .split(",")
    .map((s) => s.trim())
    .includes(stage);
}

/** CloudWatch's allowed log retentions, in days. */
const RETENTIONS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

/**
 * How long a stage keeps its logs (every function's log group and the API's access log), in days:
 * `LOG_RETENTION_DAYS` if set (one of CloudWatch's values), else a year for protected stages (a
 * disputed charge or a member's question can come months later) and two weeks for the others.
 */
export function logRetentionDays(stage: string, env: Env = process.env): number {
  const set = read(env, "LOG_RETENTION_DAYS");
  if (set) {
    const days = Number(set);
    if (!RETENTIONS.includes(days)) {
      throw new Error(`LOG_RETENTION_DAYS must be one of ${RETENTIONS.join(", ")}; got "${set}".`);
    }
    return days;
  }
  return isProtectedStage(stage, env) ? 365 : 14;
}
