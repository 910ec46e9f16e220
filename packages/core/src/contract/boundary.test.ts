/**
 * The browser-safe part of core is `contract/` (the API's request and answer schemas, the spec's
 * messages, the field and hours rules), `billing/` (pure money and calendar rules) and `text.ts`
 * (how names and dates are shown: `titleCase`, `nzDate`). The web
 * apps import only these (Biome's noRestrictedImports in biome.json stops anything else), and
 * this test keeps them browser-safe all the way down: they import nothing but each other and zod,
 * so a web bundle can never pull in the database, providers, secrets or Node built-ins.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const core = resolve(import.meta.dirname, "..");
const root = resolve(core, "../../..");
const safeFolders = ["contract", "billing"];
const safeFiles = ["text.ts"];
const isSafe = (target: string) =>
  safeFolders.some((safe) => target.startsWith(`${safe}/`)) || safeFiles.includes(target);

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test(-support)?\.tsx?$|test-support/.test(e.name),
    )
    .map((e) => join(e.parentPath, e.name));
}

const importsOf = (file: string) =>
  [
    ...readFileSync(file, "utf8").matchAll(
      /(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2]);

describe("the browser-safe part of core", () => {
  it("imports only itself and zod", () => {
    const problems: string[] = [];
    const files = [
      ...safeFolders.flatMap((folder) => sources(join(core, folder))),
      ...safeFiles.map((file) => join(core, file)),
    ];
    for (const file of files) {
      for (const specifier of importsOf(file)) {
        const where = relative(root, file);
        if (specifier.startsWith(".")) {
          const target = relative(core, resolve(dirname(file), specifier)).replace(/(\.ts)?$/, ".ts");
          if (!isSafe(target)) problems.push(`${where} imports ${specifier} (server code)`);
        } else if (specifier !== "zod") {
          problems.push(`${where} imports ${specifier}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("is all the web apps import from core", () => {
    const problems: string[] = [];
    for (const app of ["web-staff/src", "web-join/src", "packages/web/src"]) {
      for (const file of sources(join(root, app))) {
        for (const specifier of importsOf(file)) {
          if (/^@gym\/core\//.test(specifier) && !/^@gym\/core\/((contract|billing)\/|text$)/.test(specifier))
            problems.push(`${relative(root, file)} imports ${specifier}`);
          if (/packages\/(core|functions)\/|^@gym\/functions/.test(specifier))
            problems.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
