import { sep } from "node:path";
import type { Plugin } from "esbuild";

/**
 * How the Lambda functions are bundled (shared by sst.config.ts and `npm run bench`, so the
 * figure the bench prints is the bundle that ships).
 *
 * - Zod's message translations (`zod/v4/locales`, ~260 KB minified) are never used: the API
 *   answers with its own English messages. Zod re-exports them as `z.locales`, which defeats
 *   tree-shaking, so the plugin resolves that index to an empty module (English, which zod
 *   imports directly, stays).
 * - axios (inside Akahu's SDK) imports `form-data`, and with it mime-types and mime-db (~160 KB),
 *   only to send multipart bodies; the Akahu SDK sends JSON only. `form-data` imported by axios
 *   resolves to a stub that refuses multipart. tests/infra/bundle.test.ts runs the bundled Akahu
 *   adapter against a local Akahu stand-in to prove the SDK still works.
 * - Code splitting: provider SDKs that only some requests need (Akahu's, with axios) are
 *   imported dynamically and land in their own chunks, loaded on first use, not at cold start.
 */
export const dropZodLocales: Plugin = {
  name: "drop-zod-locales",
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      args.importer.includes(`${sep}zod${sep}`)
        ? { path: "zod-locales", namespace: "empty-module" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "empty-module" }, () => ({
      contents: "export {};",
      loader: "js",
    }));
  },
};

export const dropAxiosMultipart: Plugin = {
  name: "drop-axios-multipart",
  setup(build) {
    build.onResolve({ filter: /^form-data$/ }, (args) =>
      args.importer.includes(`${sep}axios${sep}`)
        ? { path: "form-data", namespace: "no-multipart" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "no-multipart" }, () => ({
      contents:
        "export default class FormData { constructor() { throw new Error('multipart bodies are not bundled (infra/bundle.ts)'); } }",
      loader: "js",
    }));
  },
};

export const bundlePlugins = [dropZodLocales, dropAxiosMultipart];

export const functionBundling = {
  splitting: true,
  esbuild: { plugins: bundlePlugins },
};
