import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { ENV_CREDENTIALS_MISSING, lambdaBuildOptions } from "../../infra/bundle";
import { type EmailContent, renderHtml } from "../../packages/core/src/email/layout";
import { lambdaEntries } from "../../packages/functions/src/entries";
import { type AkahuStub, type StripeStub, startAkahuStub, startStripeStub } from "../support/provider-stubs";

/**
 * The Lambda bundle drops code it never needs (infra/bundle.ts). This bundles the real Akahu
 * adapter exactly that way and drives it against a local Akahu stand-in, so a dropped module the
 * SDK does need would fail here rather than in production.
 */
const root = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "bundle-test-"));
let stub: AkahuStub | undefined;
let stripeStub: StripeStub | undefined;

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<string>((done, fail) =>
    execFile(command, args, { cwd: dir, timeout: 30_000, env }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout),
    ),
  );
}

afterAll(async () => {
  await stub?.close();
  await stripeStub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the bundled Lambda code", () => {
  it("still runs the official Akahu SDK (axios on fetch, without multipart) end to end, payments included", async () => {
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      `export { realAkahu } from ${JSON.stringify(resolve(root, "packages/core/src/providers/akahu/real.ts"))};`,
    );
    const built = await build({ ...lambdaBuildOptions({ akahu: entry }, join(dir, "out")), metafile: true });
    // axios without its Node http adapter: the SDK sends with Node's fetch.
    expect(
      Object.keys(built.metafile.inputs).filter((input) =>
        /axios\/lib\/adapters\/http\.js|node_modules\/(follow-redirects|proxy-from-env|https-proxy-agent|form-data)\//.test(
          input,
        ),
      ),
    ).toEqual([]);
    stub = await startAkahuStub();
    // Run the bundle in a plain Node process, as Lambda does (not through vitest's module runner).
    const script = `
      const { realAkahu } = await import(${JSON.stringify(pathToFileURL(join(dir, "out", "akahu.mjs")).href)});
      const app = ${JSON.stringify(stub.app)};
      const port = realAkahu({ platformApp: app, apiBase: ${JSON.stringify(stub.url)} });
      const { accessToken } = await port.exchange(app, { code: process.argv[1], redirectUri: "http://localhost:3001/x" });
      const accounts = await port.listAccounts(app, accessToken);
      const verified = await port.verifyWebhook(process.argv[2], process.argv[3], process.argv[4]);
      const payment = await port.createPayment(app, accessToken, {
        from_account: accounts[0].id,
        to: { name: "Gym", account_number: "12-3140-0171323-50" },
        amount: 2999,
        reference: { particulars: "PBUNDLE", code: "GYM", reference: "WEEK 1" },
        idempotencyKey: "bundle-payment-1",
      });
      const settled = await port.getPayment(app, accessToken, payment.id);
      const kind = (error) => ({ kind: error.kind, status: error.status });
      const refused = await port.listAccounts(app, "not-a-token").catch(kind);
      const unreachable = await realAkahu({ platformApp: app, apiBase: "http://127.0.0.1:9" })
        .listAccounts(app, accessToken).catch(kind);
      console.log(JSON.stringify({ accounts, verified, payment, settled, refused, unreachable }));`;
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
    // Bank payments through the bundled SDK: dollars on the wire, the Idempotency-Key header sent.
    expect(result.payment).toMatchObject({ amount: 2999, final: false, meta: { particulars: "PBUNDLE" } });
    expect(result.settled).toMatchObject({ id: result.payment.id, status: "SENT", final: true });
    // Akahu's refusals and an unreachable Akahu keep their meaning through the fetch adapter.
    expect(result.refused).toEqual({ kind: "declined", status: 422 });
    expect(result.unreachable).toEqual({ kind: "unavailable", status: 502 });
    const sent = stub?.requests.find((r) => r.method === "POST" && r.path === "/v1/payments");
    expect(sent?.headers["idempotency-key"]).toBe("bundle-payment-1");
    expect(JSON.parse(sent?.body ?? "{}").amount).toBe(29.99);
  });

  it("never reaches the simulated providers or the local runtime from any Lambda entry", async () => {
    // Every entry as SST bundles it (one build, so the inputs are the union of what they reach).
    const result = await build({
      ...lambdaBuildOptions(
        Object.fromEntries(
          Object.entries(lambdaEntries).map(([name, path]) => [
            name.replace(/\W+/g, "-"),
            resolve(root, path),
          ]),
        ),
        join(dir, "entries"),
      ),
      metafile: true,
      write: false,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.endsWith("packages/core/src/core.ts"))).toBe(true);
    // Dev only: packages/core/src/simulators/ and packages/functions/src/local/.
    const devOnly = inputs.filter((input) =>
      /packages\/core\/src\/simulators\/|packages\/functions\/src\/local\//.test(input),
    );
    expect(devOnly).toEqual([]);
  });

  it("renders an email as the unbundled layout does (React's streaming production renderer, no Prettier or html-to-text)", async () => {
    const content: EmailContent = {
      brand: { name: "Kia Ora Gym", logo_url: "https://example.nz/logo.png", reply_to: "hello@example.nz" },
      preview: "Your receipt",
      unsubscribe_url: "https://example.nz/unsubscribe?t=1",
      blocks: [
        {
          p: [
            "Kia ora ",
            { strong: "Aroha" },
            ", see ",
            { href: "https://example.nz/x", label: "your account" },
          ],
        },
        { button: { href: "https://example.nz/pay", label: "Pay now" } },
        { code: "123456" },
        {
          rows: [
            { label: "Weekly", value: "$29.99" },
            { label: "Total", value: "$29.99", total: true },
          ],
        },
      ],
    };
    const entry = join(dir, "email.ts");
    writeFileSync(
      entry,
      `export { renderHtml } from ${JSON.stringify(resolve(root, "packages/core/src/email/layout.tsx"))};`,
    );
    const result = await build({
      ...lambdaBuildOptions({ email: entry }, join(dir, "email")),
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /node_modules\/(prettier|html-to-text)\//.test(input))).toEqual([]);
    // React's production build, and only the streaming renderer React Email calls.
    expect(inputs.filter((input) => /react-dom.*(\.development\.js|legacy)/.test(input))).toEqual([]);
    const script = `
      const { renderHtml } = await import(${JSON.stringify(pathToFileURL(join(dir, "email", "email.mjs")).href)});
      process.stdout.write(await renderHtml(JSON.parse(process.argv[1])));`;
    const bundled = await run(process.execPath, [
      "--input-type=module",
      "-e",
      script,
      JSON.stringify(content),
    ]);
    expect(bundled).toBe(await renderHtml(content));
    expect(bundled).toContain("Pay now");
  });

  it("signs DynamoDB calls with the environment's credentials, and fails clearly without them (no SSO, STS, profiles or metadata)", async () => {
    // A stand-in for DynamoDB that answers ListTables and records how each call was signed
    // (DynamoDB Local accepts any signature, so it could not tell which credentials were used).
    const calls: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      calls.push(request.headers);
      request.resume().on("end", () => {
        response.writeHead(200, { "content-type": "application/x-amz-json-1.0" });
        response.end(JSON.stringify({ TableNames: ["gym-bundle"] }));
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const entry = join(dir, "dynamo.ts");
      // The API's DynamoDB packages, created as db/client.ts does in AWS (no explicit credentials).
      writeFileSync(
        entry,
        `import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
export async function listTables(endpoint: string) {
  const client = new DynamoDBClient({ region: "ap-southeast-2", endpoint, maxAttempts: 1 });
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames;
  } finally {
    client.destroy();
  }
}`,
      );
      const result = await build({
        ...lambdaBuildOptions({ dynamo: entry }, join(dir, "dynamo")),
        nodePaths: [join(root, "node_modules")],
        metafile: true,
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(
        inputs.filter((input) =>
          /^node_modules\/(@aws-sdk\/(credential-provider-(?!env)|nested-clients|token-providers)|bowser|@smithy\/core\/dist-es\/submodules\/event-streams)/.test(
            input,
          ),
        ),
      ).toEqual([]);
      const script = `
        const { listTables } = await import(${JSON.stringify(pathToFileURL(join(dir, "dynamo", "dynamo.mjs")).href)});
        try { console.log(JSON.stringify(await listTables(process.argv[1]))); }
        catch (error) { console.log(JSON.stringify({ error: error.message })); }`;
      const { AWS_PROFILE, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, ...rest } =
        process.env;
      const bare = {
        ...rest,
        HOME: dir,
        AWS_CONFIG_FILE: join(dir, "none"),
        AWS_SHARED_CREDENTIALS_FILE: join(dir, "none"),
      };
      const role = {
        ...bare,
        AWS_ACCESS_KEY_ID: "ASIABUNDLETEST",
        AWS_SECRET_ACCESS_KEY: "secret",
        AWS_SESSION_TOKEN: "session-token",
      };
      const args = ["--input-type=module", "-e", script, endpoint];
      expect(JSON.parse(await run(process.execPath, args, role))).toEqual(["gym-bundle"]);
      expect(calls).toHaveLength(1);
      expect(calls[0].authorization).toContain("Credential=ASIABUNDLETEST/");
      expect(calls[0]["x-amz-security-token"]).toBe("session-token");
      // Without credentials in the environment: the bundle's own message, and no call made.
      expect(JSON.parse(await run(process.execPath, args, bare))).toEqual({ error: ENV_CREDENTIALS_MISSING });
      expect(calls).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it("builds every ElectroDB entity without jsonschema, into the same models the checked unbundled ones are", async () => {
    const service = resolve(root, "packages/core/src/db/service.ts");
    const entry = join(dir, "models.ts");
    writeFileSync(entry, `export { db } from ${JSON.stringify(service)};`);
    const result = await build({
      ...lambdaBuildOptions({ models: entry }, join(dir, "models")),
      metafile: true,
    });
    expect(
      Object.keys(result.metafile.inputs).filter((input) => input.includes("node_modules/jsonschema/")),
    ).toEqual([]);
    const models = (entities: Record<string, { model: unknown }>) =>
      JSON.stringify(Object.entries(entities).map(([name, entity]) => [name, entity.model]));
    const script = `
      const { db } = await import(${JSON.stringify(pathToFileURL(join(dir, "models", "models.mjs")).href)});
      process.stdout.write(JSON.stringify(Object.entries(db().entities).map(([name, entity]) => [name, entity.model])));`;
    const bundled = await run(process.execPath, ["--input-type=module", "-e", script]);
    // Unbundled, ElectroDB checks each model with jsonschema as it builds the entity.
    const { db } = await import(service);
    expect(bundled).toBe(models(db().entities));
    expect(Object.keys(JSON.parse(bundled)).length).toBeGreaterThan(30);
  });

  it("still runs the official Stripe SDK (qs on a WeakMap side channel): connect, a saved card, a charge and a decline", async () => {
    const entry = join(dir, "stripe.ts");
    writeFileSync(
      entry,
      `export { realStripe } from ${JSON.stringify(resolve(root, "packages/core/src/providers/stripe/real.ts"))};`,
    );
    const built = await build({
      ...lambdaBuildOptions({ stripe: entry }, join(dir, "stripe")),
      metafile: true,
    });
    expect(
      Object.keys(built.metafile.inputs).filter((input) =>
        /node_modules\/(side-channel[^/]*|object-inspect|get-intrinsic)\//.test(input),
      ),
    ).toEqual([]);
    const server = await startStripeStub();
    stripeStub = server;
    // One step per process (the stand-in confirms the card between them, as Stripe.js would).
    const step = async (body: string, ...args: string[]) => {
      const script = `
        const { realStripe } = await import(${JSON.stringify(pathToFileURL(join(dir, "stripe", "stripe.mjs")).href)});
        const port = realStripe({ secretKey: ${JSON.stringify(server.secretKey)}, clientId: "ca_stub", webhookSecret: "whsec_stub", apiBase: ${JSON.stringify(server.url)} });
        const [a, b, c] = process.argv.slice(1);
        ${body}`;
      return JSON.parse(await run(process.execPath, ["--input-type=module", "-e", script, ...args]));
    };
    const account = (
      await step("console.log(JSON.stringify(await port.exchangeConnectCode(a)));", server.issueCode())
    ).stripe_user_id;
    const setup = await step(
      `console.log(JSON.stringify(await port.createSetupIntent(a, { email: "aroha@example.nz", name: "Aroha", idempotencyKey: "bundle-setup" })));`,
      account,
    );
    const charge = (number: string, key: string) => {
      server.confirmSetupIntent(account, setup.setup_intent_id, number);
      return step(
        `const card = await port.retrieveSetupIntent(a, b);
        const charge = await port.chargeOffSession(a, { customer_id: card.customer_id, payment_method_id: card.payment_method_id, amount: 2999, currency: "nzd", idempotencyKey: c, description: "Weekly", metadata: { payment_id: "p-1", organisation_id: "o-1" } });
        console.log(JSON.stringify({ card, charge }));`,
        account,
        setup.setup_intent_id,
        key,
      );
    };
    const paid = await charge("4242424242424242", "bundle-charge");
    expect(paid.card).toMatchObject({ status: "succeeded", customer_id: setup.customer_id });
    expect(paid.charge).toMatchObject({ status: "succeeded", amount: 2999 });
    // The nested metadata went out form-encoded by qs, as Stripe reads it.
    const sent = server.requests.find((r) => r.path === "/v1/payment_intents" && r.method === "POST");
    const form = new URLSearchParams(sent?.body ?? "");
    expect(form.get("metadata[payment_id]")).toBe("p-1");
    expect(form.get("amount")).toBe("2999");
    expect(sent?.headers["idempotency-key"]).toBe("bundle-charge");
    const declined = await charge("4000000000009995", "bundle-decline");
    expect(declined.charge).toMatchObject({
      status: "requires_payment_method",
      decline_code: "insufficient_funds",
    });
  });

  it("answers as the API Lambda, each path segment's routers loaded from their own chunks on first request", async () => {
    // Inside the repository, so the packages installed beside the bundle (argon2) resolve as on Lambda.
    // .build/ is git-ignored: a fresh clone has none yet.
    mkdirSync(join(root, ".build"), { recursive: true });
    const out = mkdtempSync(join(root, ".build", "bundle-test-api-"));
    try {
      await build(lambdaBuildOptions({ lambda: resolve(root, "packages/functions/src/api/lambda.ts") }, out));
      const script = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(join(out, "lambda.mjs")).href)});
        const call = async (method, path, body) => {
          const headers = { host: "api.example", "x-origin-verify": "origin", "x-requested-with": "XMLHttpRequest", "content-type": "application/json" };
          const answer = await handler({ version: "2.0", routeKey: "$default", rawPath: path, rawQueryString: "", headers, body,
            requestContext: { http: { method, path, sourceIp: "203.0.113.1" }, requestId: "r", domainName: "api.example", stage: "$default" },
            isBase64Encoded: false }, { awsRequestId: "a" });
          return [answer.statusCode, JSON.parse(answer.body)];
        };
        const results = [
          await call("GET", "/api/members"),
          await call("POST", "/api/login", JSON.stringify({ email: "", password: "" })),
          await call("GET", "/api/no-such-thing"),
          await call("GET", "/api/openapi.json"),
        ];
        process.stdout.write(JSON.stringify(results.map(([status, body]) => [status, body.error ?? Object.keys(body.paths ?? {}).length])));`;
      const env = {
        ...process.env,
        APP_ENV: "aws",
        ORIGIN_SECRET: "origin",
        SESSION_SECRET: "session",
        ENCRYPTION_KEY: "key",
        TABLE_NAME: "bundle-test",
        AWS_REGION: "ap-southeast-2",
        LOG_LEVEL: "silent",
      };
      const output = await run(process.execPath, ["--input-type=module", "-e", script], env);
      const [members, login, unknown, document] = JSON.parse(output.slice(output.lastIndexOf("\n[") + 1));
      expect(members).toEqual([401, "unauthenticated"]);
      expect(login).toEqual([422, "validation_failed"]);
      expect(unknown).toEqual([404, "not_found"]);
      expect(document[0]).toBe(200);
      expect(document[1]).toBeGreaterThan(100);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
