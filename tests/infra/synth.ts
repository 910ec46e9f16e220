import path from "node:path";
import { Template } from "aws-cdk-lib/assertions";
import { App, getStack, Function as SstFunction } from "sst/constructs";
import { useFunctions } from "sst/constructs/Function.js";
import { initProject } from "sst/project.js";
import { useRuntimeHandlers } from "sst/runtime/handlers.js";
import { API } from "../../infra/api";
import { Jobs } from "../../infra/jobs";
import { Monitoring } from "../../infra/monitoring";
import { Secrets } from "../../infra/secrets";
import { Storage } from "../../infra/storage";
import { Web } from "../../infra/web";
import config from "../../sst.config";

/**
 * Synthesises the whole app exactly as `sst deploy` wires it (sst.config.ts), handlers really bundled
 * by esbuild, offline: no AWS credentials, no bootstrap lookups (vitest sets NODE_ENV=test). The sites
 * come prebuilt from the fixture, so no Vite build runs.
 */

// biome-ignore lint/suspicious/noExplicitAny: synthesised CloudFormation JSON, checked field by field
export type Cfn = any;
export type Resource = { Type: string; Properties: Record<string, Cfn>; [key: string]: unknown };
export type Resources = Record<string, Resource>;

export const stacks = { Storage, Secrets, API, Jobs, Web, Monitoring };
export type StackName = keyof typeof stacks;

export interface Synth {
  templates: Record<StackName, Template>;
  resources: Record<StackName, Resources>;
  /** Build output folder of each function running our code (what gets zipped and deployed). */
  bundleDirs: string[];
}

/** Deploy-time settings that change the synthesised app; unset unless a test sets them. */
const settingNames = [
  "EMAIL_FROM",
  "STAFF_DOMAIN",
  "JOIN_DOMAIN",
  "HOSTED_ZONE",
  "CERTIFICATE_ARN",
  "COOKIE_DOMAIN",
  "SES_IDENTITY",
  "PROTECTED_STAGES",
  "ALARM_EMAIL",
  "LOG_RETENTION_DAYS",
];

type Build = ReturnType<ReturnType<typeof useRuntimeHandlers>["build"]>;
/** Each function's build (esbuild, then `npm install` of what is installed beside it), by handler. */
const builds = new Map<string, Build>();

/**
 * `reuseBuilds`: the functions' code as an earlier synth in this process built it, instead of
 * building (and npm-installing beside) every function again; for a configuration whose assertions
 * are about the infrastructure, not the bundles (the bundles are checked on the first synth).
 */
export async function synth(
  settings: Record<string, string>,
  stage = "test",
  options: { reuseBuilds?: boolean } = {},
): Promise<Synth> {
  process.env.SST_TELEMETRY_DISABLED = "1";
  process.env.AWS_EC2_METADATA_DISABLED = "true";
  process.env.WEB_PREBUILT_DIR = path.resolve(__dirname, "fixtures/web");
  const saved = Object.fromEntries(settingNames.map((n) => [n, process.env[n]]));
  for (const n of settingNames) delete process.env[n];
  Object.assign(process.env, settings);
  let restore = () => {};
  try {
    await initProject({ stage });
    const handlers = useRuntimeHandlers();
    const build = handlers.build;
    restore = () => {
      handlers.build = build;
    };
    handlers.build = (functionID, mode) => {
      const fn = useFunctions().fromID(functionID);
      const key = JSON.stringify([fn?.handler, fn?.architecture, fn?.runtime]);
      const built = builds.get(key);
      // The earlier build's source map was moved into its own asset and removed from disk.
      if (options.reuseBuilds && built) return built.then((b) => ({ ...b, sourcemap: undefined }));
      const fresh = build.call(handlers, functionID, mode);
      builds.set(key, fresh);
      return fresh;
    };
    const { name, region } = config.config();
    const app = new App({ mode: "deploy", stage, name, region });
    await config.stacks(app);
    await app.finish();

    const templates = {} as Synth["templates"];
    const resources = {} as Synth["resources"];
    for (const key of Object.keys(stacks) as StackName[]) {
      templates[key] = Template.fromStack(getStack(stacks[key]));
      resources[key] = templates[key].toJSON().Resources as Resources;
    }
    const bundleDirs = [getStack(API), getStack(Jobs)]
      .flatMap((stack) => stack.node.findAll())
      .filter((c): c is SstFunction => c instanceof SstFunction)
      .map((fn) => path.resolve(".sst/artifacts", fn.node.addr));
    return { templates, resources, bundleDirs };
  } finally {
    restore();
    for (const n of settingNames) delete process.env[n];
    for (const [n, v] of Object.entries(saved)) if (v !== undefined) process.env[n] = v;
  }
}

export const ofType = (r: Resources, type: string) =>
  Object.entries(r).filter(([, res]) => res.Type === type);
export const allResources = (s: Synth) => Object.values(s.resources).flatMap((r) => Object.entries(r));
export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Functions that run our code (the API and the jobs) are the ones configured for AWS. */
export const appFunctions = (s: Synth) =>
  allResources(s).filter(
    ([, r]) => r.Type === "AWS::Lambda::Function" && r.Properties.Environment?.Variables?.APP_ENV === "aws",
  );
