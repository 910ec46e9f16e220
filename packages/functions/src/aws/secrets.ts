/**
 * Cold-start configuration for AWS. Core reads configuration only from process.env; in AWS the secrets
 * (and, without custom domains, the CloudFront URLs of the two sites) are not plain environment variables
 * but SST bindings stored in SSM Parameter Store. SST marks each bound value on the function as
 *
 *   SST_Secret_value_<NAME>   = "__FETCH_FROM_SSM__"   -> process.env.<NAME>
 *   SST_StaticSite_url_<Id>   = "__FETCH_FROM_SSM__"   -> process.env.STAFF_URL / JOIN_URL
 *
 * `loadSecrets()` fetches them in one round trip (GetParameters, 10 names a call, decrypted) and copies
 * them into process.env under the names core expects. A variable already set on the function wins.
 * Locally nothing is bound, so it does nothing. Concurrent and repeated calls share one load; a failed
 * load is not cached, so the next invocation retries.
 */

import { config, type RequiredSecret } from "@gym/core/config";
import { type AwsCallOptions, awsClient } from "@gym/core/providers/aws";

const PLACEHOLDER = "__FETCH_FROM_SSM__";

/** StaticSite construct ids (infra/web.ts) and the variable each site's URL is copied into. */
export const siteUrlEnv = { StaffSite: "STAFF_URL", JoinSite: "JOIN_URL" } as const;

type Env = Record<string, string | undefined>;

/** One bound value to fetch: the variable to set and where SST stored it. */
export interface Binding {
  target: string;
  path: string;
  /** Secrets may have an app-wide value for every stage (`sst secrets set --fallback`). */
  fallbackPath?: string;
}

/** Reads SSM parameters by name, decrypted; answers only those that exist. */
export type ParameterReader = (names: string[]) => Promise<Record<string, string>>;

/** The bindings SST declared on this function that are not yet in the environment. */
export function pendingBindings(env: Env): Binding[] {
  const prefix = env.SST_SSM_PREFIX ?? `/sst/${env.SST_APP}/${env.SST_STAGE}/`;
  const bindings: Binding[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (value !== PLACEHOLDER) continue;
    const secret = /^SST_Secret_value_(.+)$/.exec(key);
    const site = /^SST_StaticSite_url_(.+)$/.exec(key);
    if (secret) {
      const name = secret[1];
      bindings.push({
        target: name,
        path: `${prefix}Secret/${name}/value`,
        fallbackPath: `/sst/${env.SST_APP}/.fallback/Secret/${name}/value`,
      });
    } else if (site && site[1] in siteUrlEnv) {
      const target = siteUrlEnv[site[1] as keyof typeof siteUrlEnv];
      bindings.push({ target, path: `${prefix}StaticSite/${site[1]}/url` });
    }
  }
  return bindings.filter(({ target }) => !env[target]);
}

/** Fetches the pending bindings and writes them into `env`; throws naming every secret left unset. */
export async function resolveBindings(env: Env, read: ParameterReader): Promise<void> {
  const pending = pendingBindings(env);
  if (pending.length === 0) return;
  const found = await read(pending.map((b) => b.path));
  const fallbacks = pending.filter((b) => found[b.path] === undefined && b.fallbackPath);
  const foundFallback = fallbacks.length ? await read(fallbacks.map((b) => b.fallbackPath!)) : {};

  const missing: string[] = [];
  for (const binding of pending) {
    const value =
      found[binding.path] ?? (binding.fallbackPath ? foundFallback[binding.fallbackPath] : undefined);
    if (value === undefined) missing.push(binding.target);
    else env[binding.target] = value;
  }
  if (missing.length) {
    throw new Error(
      `Configuration missing in SSM for stage "${env.SST_STAGE}": ${missing.join(", ")}. ` +
        `Set each with: npx sst secrets set NAME value --stage ${env.SST_STAGE}`,
    );
  }
}

export type SsmReaderOptions = AwsCallOptions;

/**
 * SSM `GetParameters` (10 names a call, decrypted) as signed HTTPS calls with aws4fetch and the
 * function's role credentials from the environment, like core's SES sender: the SDK client would add
 * hundreds of KB to every bundle for one call at cold start.
 */
export function ssmParameterReader(options: SsmReaderOptions = {}): ParameterReader {
  const { region, client: aws } = awsClient("ssm", {
    ...options,
    region: options.region ?? process.env.AWS_REGION ?? "ap-southeast-2",
  });
  const endpoint = options.endpoint ?? `https://ssm.${region}.amazonaws.com`;
  return async (names) => {
    const values: Record<string, string> = {};
    for (let i = 0; i < names.length; i += 10) {
      const response = await aws.fetch(`${endpoint}/`, {
        method: "POST",
        headers: {
          "content-type": "application/x-amz-json-1.1",
          "x-amz-target": "AmazonSSM.GetParameters",
        },
        body: JSON.stringify({ Names: names.slice(i, i + 10), WithDecryption: true }),
      });
      if (!response.ok) {
        const detail = (await response.text()).slice(0, 300);
        throw new Error(`SSM GetParameters failed with ${response.status}: ${detail}`);
      }
      const result = (await response.json()) as { Parameters?: { Name?: string; Value?: string }[] };
      for (const parameter of result.Parameters ?? []) {
        if (parameter.Name && parameter.Value !== undefined) values[parameter.Name] = parameter.Value;
      }
    }
    return values;
  };
}

let loading: Promise<void> | undefined;

/** Copies the bound SST secrets (and site URLs) into process.env. Idempotent; cached after success. */
export function loadSecrets(): Promise<void> {
  loading ??= resolveBindings(process.env, ssmParameterReader()).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * A deployed function never runs on development stand-ins: outside APP_ENV=local/test a missing
 * secret stops the invocation before any work (core would otherwise fail later, mid-request).
 */
export function refuseWithoutSecrets(names: readonly RequiredSecret[]) {
  const missing = config.missingSecrets(names);
  if (missing.length)
    throw new Error(`Refusing to run without ${missing.join(", ")} (APP_ENV=${config.appEnv})`);
}
