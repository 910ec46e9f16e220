import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, type Plugin, type PluginBuild } from "esbuild";
import { describe, expect, it } from "vitest";
import { bundlePlugins, lambdaBuildOptions, pinnedForBundle } from "../../infra/bundle";
import { lambdaEntries } from "../../packages/functions/src/entries";

/**
 * The Lambda bundle replaces parts of packages (infra/bundle.ts): ElectroDB's model check, axios's
 * adapters and multipart, qs's side channel, zod's locales, react-dom's server renderers. Each such
 * package is pinned to an exact version (issue 39), and these tests fail when a plugin stops doing
 * its work (what it removed returns) or when what it stubbed would be used.
 */
const root = resolve(import.meta.dirname, "../..");
const json = (path: string) => JSON.parse(readFileSync(resolve(root, path), "utf8"));
const entries = Object.fromEntries(
  Object.entries(lambdaEntries).map(([name, path]) => [name.replace(/\W+/g, "-"), resolve(root, path)]),
);

/** A plugin that counts the imports it takes over (its onResolve answered something). */
function counted(plugin: Plugin, hits: Map<string, number>): Plugin {
  return {
    name: plugin.name,
    setup(target) {
      const proxy = new Proxy(target, {
        get(on, property) {
          if (property === "onResolve")
            return ((options, callback) =>
              on.onResolve(options, async (args) => {
                const answer = await callback(args);
                if (answer) hits.set(plugin.name, (hits.get(plugin.name) ?? 0) + 1);
                return answer;
              })) satisfies PluginBuild["onResolve"];
          const value = Reflect.get(on, property);
          return typeof value === "function" ? value.bind(on) : value;
        },
      });
      return plugin.setup(proxy);
    },
  };
}

describe("packages the bundle patches", () => {
  it.each(Object.entries(pinnedForBundle))(
    "%s is pinned to its installed version, exactly, wherever it is declared",
    (name, { version }) => {
      expect(json(`node_modules/${name}/package.json`).version).toBe(version);
      const lock = json("package-lock.json").packages;
      expect(lock[`node_modules/${name}`].version).toBe(version);
      const declared = ["package.json", ...lock[""].workspaces.map((w: string) => `${w}/package.json`)]
        .map((file) => [file, { ...json(file).dependencies, ...json(file).devDependencies }[name]])
        .filter(([, spec]) => spec !== undefined);
      expect(declared.length).toBeGreaterThan(0);
      for (const [file, spec] of declared) expect(`${file} ${spec}`).toBe(`${file} ${version}`);
    },
  );

  it("every plugin still takes over what it replaces when every Lambda entry is bundled", async () => {
    const hits = new Map<string, number>();
    await build({
      ...lambdaBuildOptions(entries, join(root, "node_modules/.cache/bundle-pins")),
      plugins: bundlePlugins.map((plugin) => counted(plugin, hits)),
      write: false,
    });
    // A plugin that takes over nothing means its package changed: what it removed is back.
    expect(bundlePlugins.filter((plugin) => !hits.get(plugin.name)).map((plugin) => plugin.name)).toEqual([]);
  });

  it("zod's locales are not in the bundle (and would be without the plugin)", async () => {
    const bundleOf = async (plugins: Plugin[]) => {
      const result = await build({
        ...lambdaBuildOptions(
          { api: entries.api ?? Object.values(entries)[0] },
          join(root, "node_modules/.cache/zod"),
        ),
        plugins,
        metafile: true,
        write: false,
      });
      return Object.keys(result.metafile.inputs).filter((input) =>
        /node_modules\/zod\/v4\/locales\/(?!en\.js$)[^/]+\.js$/.test(input),
      );
    };
    expect(await bundleOf(bundlePlugins)).toEqual([]);
    expect(
      (await bundleOf(bundlePlugins.filter((p) => p.name !== "drop-zod-locales"))).length,
    ).toBeGreaterThan(10);
  });

  it("ElectroDB calls its schema validator only to check models (the stand-in answers models, never input)", () => {
    const src = (file: string) => readFileSync(resolve(root, "node_modules/electrodb/src", file), "utf8");
    const files = ["entity.js", "service.js", "util.js", "validations.js", "schema.js", "clauses.js"];
    // jsonschema is required once, by validations.js, and its validator used only in validateModel.
    expect(files.filter((file) => src(file).includes('require("jsonschema")'))).toEqual(["validations.js"]);
    const validations = src("validations.js");
    const uses = [...validations.matchAll(/\bv\.validate\(([^,]+),/g)].map((m) => m[1]);
    expect(uses).toEqual(["model", "model"]);
    // validateModel is reached from the Entity's constructor (`_validateModel`), the
    // model-or-instance test (`testModel`, util.js) and `createSchema` (a schema definition), nowhere else.
    const callers = files.flatMap((file) =>
      [...src(file).matchAll(/\b(?:validations|v)\.(model|testModel)\(/g)].map((m) => `${file} ${m[1]}`),
    );
    expect(callers.sort()).toEqual(["entity.js model", "schema.js model", "util.js testModel"]);
  });
});
