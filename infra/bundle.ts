import { dirname, join, sep } from "node:path";
import type { BuildOptions, Plugin } from "esbuild";

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
/**
 * Packages whose internals a plugin below replaces, each pinned to an exact version in every
 * package.json that declares it (issue 39: a caret range would let an upgrade change what the
 * plugin replaces without anyone noticing). package.json holds no comments, so the pin is named
 * here and at its plugin; tests/infra/bundle-pins.test.ts checks the pins against the installed
 * versions and that each plugin still takes over what it replaces. To upgrade one: change its
 * version in package.json, install, and rerun tests/infra/bundle*.test.ts.
 */
export const pinnedForBundle = {
  electrodb: { version: "3.9.3", plugin: "electrodb-models-checked-unbundled" },
  axios: { version: "1.21.1", plugin: "axios-on-fetch, drop-axios-multipart" },
  qs: { version: "6.16.2", plugin: "side-channel-on-weakmap" },
  zod: { version: "4.6.7", plugin: "drop-zod-locales" },
  "react-dom": { version: "19.3.1", plugin: "streaming-email-renderer" },
} as const;

/** Pinned: zod (`pinnedForBundle`): its `v4/locales/index.js` is replaced. */
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

/** Pinned: axios (`pinnedForBundle`, declared by packages/core though only Akahu's SDK imports it). */
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

/**
 * axios (inside Akahu's SDK) ships three adapters and picks the first the environment supports:
 * XMLHttpRequest (none in Node), its Node `http` adapter, then `fetch`. The `http` one brings
 * follow-redirects, debug, proxy agents and proxy-from-env (~60 KB with itself). Imported by
 * axios's adapter list, it resolves to "not in this build" (what axios's own browser build does),
 * so the SDK sends with Node 22's fetch: the same requests, timeouts (an AbortSignal) and error
 * shapes (`error.response.status`; no response on a network error or timeout). Environment
 * proxies (HTTPS_PROXY), which Lambda does not set, are not honoured. tests/infra/bundle.test.ts
 * drives the bundled adapter against a local Akahu stand-in. Pinned: axios (`pinnedForBundle`).
 */
export const axiosOnFetch: Plugin = {
  name: "axios-on-fetch",
  setup(build) {
    build.onResolve({ filter: /^\.\/http\.js$/ }, (args) =>
      /[\\/]axios[\\/]lib[\\/]adapters[\\/]adapters\.js$/.test(args.importer)
        ? { path: "axios-http-adapter", namespace: "axios-on-fetch" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "axios-on-fetch" }, () => ({
      contents: "export default null;",
      loader: "js",
    }));
  },
};

/**
 * ElectroDB checks model definitions against its JSON schemas with jsonschema (~30 KB, loaded at
 * cold start) in two places: when an Entity is built (an invalid model throws) and when a Service
 * sorts what it is given into models and Entity instances (an instance fails the model schema).
 * Our models are fixed in code and every unbundled run (each test, the local runtime) builds every
 * Entity and the Service with the real check, so an invalid model fails there. Imported by
 * ElectroDB, jsonschema resolves to a validator that gives those same answers for valid models:
 * a plain object passes, an ElectroDB instance (which carries `_instance`) fails. Validation never
 * changes what it checks (ElectroDB reads only the errors). tests/infra/bundle.test.ts builds the
 * Service with every entity from the bundle and compares the parsed models with the unbundled ones;
 * tests/infra/bundle-pins.test.ts that ElectroDB calls the validator on models only. Pinned:
 * electrodb (`pinnedForBundle`).
 */
export const electrodbModelsCheckedUnbundled: Plugin = {
  name: "electrodb-models-checked-unbundled",
  setup(build) {
    build.onResolve({ filter: /^jsonschema$/ }, (args) =>
      /[\\/]node_modules[\\/]electrodb[\\/]/.test(args.importer)
        ? { path: "jsonschema", namespace: "models-checked-unbundled" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "models-checked-unbundled" }, () => ({
      contents: `class Validator {
  addSchema() {}
  validate(value) {
    return { errors: value && value._instance !== undefined ? [{ property: "instance", message: "is an ElectroDB instance, not a model" }] : [] };
  }
}
Validator.prototype.customFormats = {};
module.exports = { Validator };`,
      loader: "js",
    }));
  },
};

/**
 * qs (Stripe's SDK encodes its form bodies with it) keeps per-object state through side-channel, a
 * shim for engines without WeakMap that brings object-inspect (for its error messages),
 * get-intrinsic and a dozen small helpers (~33 KB). Imported by qs, it resolves to the same
 * `{ get, set, has, delete, assert }` channel on Node's WeakMap (object keys) and Map (others).
 * tests/infra/bundle.test.ts drives the bundled Stripe adapter against a local Stripe stand-in.
 * Pinned: qs (`pinnedForBundle`, declared by packages/core though only Stripe's SDK imports it).
 */
export const sideChannelOnWeakMap: Plugin = {
  name: "side-channel-on-weakmap",
  setup(build) {
    build.onResolve({ filter: /^side-channel$/ }, (args) =>
      /[\\/]node_modules[\\/]qs[\\/]/.test(args.importer)
        ? { path: "side-channel", namespace: "side-channel-on-weakmap" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "side-channel-on-weakmap" }, () => ({
      contents: `module.exports = function getSideChannel() {
  const objects = new WeakMap();
  const others = new Map();
  const of = (key) => (key !== null && (typeof key === "object" || typeof key === "function") ? objects : others);
  return {
    assert(key) {
      if (!of(key).has(key)) throw new TypeError("Side channel does not contain " + String(key));
    },
    delete: (key) => of(key).delete(key),
    get: (key) => of(key).get(key),
    has: (key) => of(key).has(key),
    set(key, value) {
      of(key).set(key, value);
    },
  };
};`,
      loader: "js",
    }));
  },
};

/**
 * React Email's `render` imports Prettier (~250 KB, for its `pretty` option) and html-to-text with
 * its HTML parser (~200 KB, for its `plainText` option) at the top of the module. The send path
 * (`email/layout.tsx`) calls `render(element)` with neither option: the text part is built from the
 * blocks (`email/message.ts`). Imported by `@react-email/render`, they resolve to stubs that refuse;
 * tests/infra/bundle.test.ts renders an email from the bundle and compares it with the unbundled one.
 */
export const dropEmailFormatting: Plugin = {
  name: "drop-email-formatting",
  setup(build) {
    build.onResolve({ filter: /^(prettier(\/.*)?|html-to-text)$/ }, (args) =>
      args.importer.includes(`${sep}@react-email${sep}render${sep}`)
        ? { path: args.path, namespace: "no-email-formatting" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "no-email-formatting" }, (args) => ({
      contents: `const refuse = () => { throw new Error(${JSON.stringify(`${args.path} is not bundled (infra/bundle.ts): render without pretty or plainText`)}); };
export const format = refuse, convert = refuse;
export default {};`,
      loader: "js",
    }));
  },
};

/**
 * `react-dom/server` for Node is two renderers: the streaming one React Email's `render` calls
 * (`renderToReadableStream`, or `renderToPipeableStream`) and the legacy `renderToString` one
 * (~100 KB) it never calls. Imported by `@react-email/render`, it resolves to the streaming
 * renderer's production build alone (the bundle defines NODE_ENV as production, below).
 * Pinned: react-dom (`pinnedForBundle`): the file path below is its internals.
 */
export const streamingEmailRenderer: Plugin = {
  name: "streaming-email-renderer",
  setup(build) {
    build.onResolve({ filter: /^react-dom\/server$/ }, (args) =>
      args.importer.includes(`${sep}@react-email${sep}render${sep}`)
        ? { path: "react-dom/server", namespace: "streaming-email-renderer", pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "streaming-email-renderer" }, async (args) => {
      const reactDom = await build.resolve("react-dom/package.json", {
        kind: "import-statement",
        resolveDir: args.pluginData as string,
      });
      const fizz = join(dirname(reactDom.path), "cjs/react-dom-server.node.production.js");
      return {
        contents: `export { renderToPipeableStream, renderToReadableStream, resume, resumeToPipeableStream, version } from ${JSON.stringify(fizz)};`,
        loader: "js",
        resolveDir: dirname(fizz),
      };
    });
  },
};

/**
 * The AWS SDK clients' default credential chain (`@aws-sdk/credential-provider-node`: environment,
 * SSO, profiles, process, web identity, container and instance metadata, with the STS and SSO
 * clients they need, ~170 KB) resolves, in a Lambda bundle, to the environment provider alone.
 * Lambda always puts the function role's credentials in the environment (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), as `providers/aws.ts` already relies on. Without
 * them a call fails at once with the message below rather than trying profiles. A bundled
 * DynamoDB client signing with the environment's key, and that message, are in
 * tests/infra/bundle.test.ts.
 */
export const envCredentialsOnly: Plugin = {
  name: "env-credentials-only",
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, async (args) => {
      if (args.pluginData === "env-credentials-only") return undefined;
      const real = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: "env-credentials-only",
      });
      return { path: real.path, namespace: "env-credentials-only" };
    });
    build.onLoad({ filter: /.*/, namespace: "env-credentials-only" }, (args) => ({
      contents: `import { fromEnv } from "@aws-sdk/credential-provider-env";
export const defaultProvider = (init = {}) => {
  const env = fromEnv(init);
  return async () => {
    try {
      return await env();
    } catch (cause) {
      throw new Error(${JSON.stringify(ENV_CREDENTIALS_MISSING)}, { cause });
    }
  };
};`,
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * Two parts of the AWS SDK a Node DynamoDB client loads only through a dynamic `import()` it never
 * reaches: bowser (~36 KB, parses a browser's user agent for the browser build's user-agent
 * header; Node's clients build theirs from `process`) and `@smithy/core/event-streams` (~15 KB,
 * for event-stream operations, which DynamoDB's API has none of). Each resolves to a stub that
 * names itself if it is ever reached; the bundled DynamoDB call in tests/infra/bundle.test.ts runs
 * without them.
 */
export const dropUnreachedAwsSdkParts: Plugin = {
  name: "drop-unreached-aws-sdk-parts",
  setup(build) {
    build.onResolve({ filter: /^(bowser|@smithy\/core\/event-streams)$/ }, (args) =>
      /[\\/]node_modules[\\/](@aws-sdk|@smithy)[\\/]/.test(args.importer)
        ? { path: args.path, namespace: "unreached-aws-sdk-part" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "unreached-aws-sdk-part" }, (args) => ({
      contents: `const refuse = () => { throw new Error(${JSON.stringify(`${args.path} is not bundled (infra/bundle.ts dropUnreachedAwsSdkParts)`)}); };
export const parse = refuse, EventStreamSerde = refuse, eventStreamSerdeProvider = refuse;
export default { parse };`,
      loader: "js",
    }));
  },
};

/** What a bundled AWS SDK client says when the environment has no credentials. */
export const ENV_CREDENTIALS_MISSING =
  "No AWS credentials in the environment (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY): the Lambda bundle reads only the function role's credentials from the environment (infra/bundle.ts envCredentialsOnly)";

export const bundlePlugins = [
  dropZodLocales,
  dropAxiosMultipart,
  axiosOnFetch,
  sideChannelOnWeakMap,
  dropEmailFormatting,
  streamingEmailRenderer,
  envCredentialsOnly,
  electrodbModelsCheckedUnbundled,
  dropUnreachedAwsSdkParts,
];

/** Not bundled but installed beside each bundle by SST (sst.config.ts `nodejs.install`). */
export const installedBesideBundle = ["@node-rs/argon2", "@node-rs/argon2-linux-arm64-gnu"];

/**
 * The esbuild options SST v2 is given on top of its own (`nodejs.esbuild`, spread last over SST's
 * defaults, node_modules/sst/runtime/handlers/node.js). Stated here, not left to SST's defaults,
 * so the bench and the bundle test build exactly what ships:
 * - `keepNames` (SST's default, kept): `errors.ts` names each domain error by `new.target.name`.
 * - `mainFields: ["module", "main"]` (SST's default for ESM): packages with an ES build (the AWS
 *   SDK's `dist-es`) are tree-shaken instead of bundled whole from their CommonJS build.
 * - `target: "node22"`: the Lambda runtime (`nodejs22.x`) instead of SST's `esnext`.
 * - `process.env.NODE_ENV` is `"production"`: React (the email renderer) picks its production
 *   build when bundled (Lambda sets no NODE_ENV, so without this both builds ship and the slow
 *   development one runs). Nothing else in the bundle reads NODE_ENV.
 * The AWS SDK stays bundled (docs/architecture.md "Bundling and budgets" says why).
 */
export const lambdaEsbuild = {
  plugins: bundlePlugins,
  keepNames: true,
  mainFields: ["module", "main"],
  target: "node22",
  define: { "process.env.NODE_ENV": '"production"' },
} satisfies BuildOptions;

export const functionBundling = {
  splitting: true,
  esbuild: lambdaEsbuild,
};

/**
 * A Lambda bundle as `sst deploy` builds it (SST's ESM defaults plus `lambdaEsbuild`), for the
 * bench and the bundle test: minified, split ESM with SST's banner, the installed packages external.
 */
export function lambdaBuildOptions(entryPoints: Record<string, string>, outdir: string): BuildOptions {
  return {
    entryPoints,
    outdir,
    bundle: true,
    minify: true,
    splitting: true,
    platform: "node",
    format: "esm",
    outExtension: { ".js": ".mjs" },
    external: installedBesideBundle,
    banner: {
      js: [
        `import { createRequire as topLevelCreateRequire } from 'module';`,
        "const require = topLevelCreateRequire(import.meta.url);",
        `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
        `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
      ].join("\n"),
    },
    logLevel: "error",
    ...lambdaEsbuild,
  };
}
