import type { SSTConfig } from "sst";
import type { NodeJSProps } from "sst/constructs";
import { API } from "./infra/api";
import { functionBundling, installedBesideBundle } from "./infra/bundle";
import { Jobs } from "./infra/jobs";
import { Monitoring } from "./infra/monitoring";
import { Secrets } from "./infra/secrets";
import { Storage } from "./infra/storage";
import { Web } from "./infra/web";

export default {
  config() {
    return { name: "gym-platform", region: "ap-southeast-2" };
  },
  stacks(app) {
    app.setDefaultFunctionProps({
      runtime: "nodejs22.x",
      architecture: "arm_64",
      // X-Ray would need xray:PutTraceSegments on "*"; logs go to each function's own log group.
      tracing: "disabled",
      nodejs: {
        format: "esm",
        // Native binding (password hashing): not bundled but installed next to the bundle. SST installs
        // with --omit=optional, which drops the prebuilt binary, so name the linux-arm64 one too.
        // Anything esbuild cannot follow (e.g. createRequire()) belongs here as well: the infra test
        // loads every bundle on its own and fails on what is missing.
        install: installedBesideBundle,
        minify: true,
        // Code splitting and the esbuild options shared with the bench: see infra/bundle.ts. (SST types esbuild's
        // options with its own esbuild version; the plugin API is the same.)
        splitting: functionBundling.splitting,
        esbuild: functionBundling.esbuild as unknown as NonNullable<NodeJSProps["esbuild"]>,
      },
    });
    app.stack(Storage).stack(Secrets).stack(API).stack(Jobs).stack(Web).stack(Monitoring);
  },
} satisfies SSTConfig;
