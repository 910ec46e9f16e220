import { Config, type StackContext } from "sst/constructs";

/**
 * Every secret the code reads, by the exact process.env name core expects. Values live in SSM
 * (SecureString) per stage: `npx sst secrets set NAME value --stage NAME`. At cold start
 * packages/functions/src/aws/secrets.ts copies the bound values into process.env.
 */
export const secretNames = [
  "SESSION_SECRET",
  "ENCRYPTION_KEY",
  "STRIPE_SECRET_KEY",
  "STRIPE_CLIENT_ID",
  "STRIPE_WEBHOOK_SECRET",
  "AKAHU_APP_TOKEN",
  "AKAHU_APP_SECRET",
  "KISI_API_KEY",
] as const;

export type SecretName = (typeof secretNames)[number];

export function Secrets({ stack }: StackContext) {
  const secrets = Config.Secret.create(stack, ...secretNames);
  return { secrets, all: Object.values(secrets) };
}
