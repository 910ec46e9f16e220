import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { bundlePlugins } from "../../infra/bundle";
import { type AkahuStub, startAkahuStub } from "../support/provider-stubs";

/**
 * The Lambda bundle drops code it never needs (infra/bundle.ts). This bundles the real Akahu
 * adapter exactly that way and drives it against a local Akahu stand-in, so a dropped module the
 * SDK does need would fail here rather than in production.
 */
const root = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "bundle-test-"));
let stub: AkahuStub | undefined;

function run(command: string, args: string[]) {
  return new Promise<string>((done, fail) =>
    execFile(command, args, { cwd: dir, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout),
    ),
  );
}

afterAll(async () => {
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the bundled Lambda code", () => {
  it("still runs the official Akahu SDK (axios without multipart) end to end", async () => {
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      `export { realAkahu } from ${JSON.stringify(resolve(root, "packages/core/src/providers/akahu/real.ts"))};`,
    );
    await build({
      entryPoints: { akahu: entry },
      bundle: true,
      minify: true,
      splitting: true,
      format: "esm",
      platform: "node",
      outdir: join(dir, "out"),
      outExtension: { ".js": ".mjs" },
      plugins: bundlePlugins,
      banner: {
        js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
      },
      logLevel: "error",
    });
    stub = await startAkahuStub();
    // Run the bundle in a plain Node process, as Lambda does (not through vitest's module runner).
    const script = `
      const { realAkahu } = await import(${JSON.stringify(pathToFileURL(join(dir, "out", "akahu.mjs")).href)});
      const app = ${JSON.stringify(stub.app)};
      const port = realAkahu({ platformApp: app, apiBase: ${JSON.stringify(stub.url)} });
      const { accessToken } = await port.exchange(app, { code: process.argv[1], redirectUri: "http://localhost:3001/x" });
      const accounts = await port.listAccounts(app, accessToken);
      const verified = await port.verifyWebhook(process.argv[2], process.argv[3], process.argv[4]);
      console.log(JSON.stringify({ accounts, verified }));`;
    const body = JSON.stringify({ webhook_type: "TOKEN", webhook_code: "DELETE" });
    const output = await run(process.execPath, [
      "--input-type=module",
      "-e",
      script,
      stub.issueCode(),
      String(stub.keyId),
      stub.sign(body),
      body,
    ]);
    const result = JSON.parse(output);
    expect(result.accounts[0]).toMatchObject({ id: "acc_stub1", formatted_account: "12-3140-0171323-50" });
    expect(result.verified).toMatchObject({ webhook_type: "TOKEN" });
  });
});
