import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { secretNames } from "../../infra/secrets";
import {
  type ParameterReader,
  pendingBindings,
  resolveBindings,
  ssmParameterReader,
} from "../../packages/functions/src/aws/secrets";

/** The environment SST gives a function with every secret and both site URLs bound (stage "prod"). */
function boundEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    SST_APP: "gym-platform",
    SST_STAGE: "prod",
    SST_SSM_PREFIX: "/sst/gym-platform/prod/",
    TABLE_NAME: "prod-gym-platform-Table",
    SST_StaticSite_url_StaffSite: "__FETCH_FROM_SSM__",
    SST_StaticSite_url_JoinSite: "__FETCH_FROM_SSM__",
    ...extra,
  };
  for (const name of secretNames) env[`SST_Secret_value_${name}`] = "__FETCH_FROM_SSM__";
  return env;
}

/** An SSM stand-in holding `store`; records every call. */
function fakeSsm(store: Record<string, string>) {
  const calls: string[][] = [];
  const read: ParameterReader = async (names) => {
    calls.push(names);
    return Object.fromEntries(names.filter((n) => n in store).map((n) => [n, store[n]]));
  };
  return { read, calls };
}

const stagePath = (name: string) => `/sst/gym-platform/prod/Secret/${name}/value`;
const fallbackPath = (name: string) => `/sst/gym-platform/.fallback/Secret/${name}/value`;

describe("loading bound secrets into process.env", () => {
  it("copies every secret and both site URLs under the names core reads", async () => {
    const store: Record<string, string> = {
      "/sst/gym-platform/prod/StaticSite/StaffSite/url": "https://d111.cloudfront.net",
      "/sst/gym-platform/prod/StaticSite/JoinSite/url": "https://d222.cloudfront.net",
    };
    for (const name of secretNames) store[stagePath(name)] = `value-of-${name}`;
    const env = boundEnv();
    const ssm = fakeSsm(store);

    await resolveBindings(env, ssm.read);

    for (const name of secretNames) expect(env[name]).toBe(`value-of-${name}`);
    expect(env.STAFF_URL).toBe("https://d111.cloudfront.net");
    expect(env.JOIN_URL).toBe("https://d222.cloudfront.net");
    expect(ssm.calls).toHaveLength(1); // all found per stage: no fallback lookup
  });

  it("uses the app-wide fallback value when a stage has none", async () => {
    const store: Record<string, string> = {};
    for (const name of secretNames) store[stagePath(name)] = "stage";
    delete store[stagePath("KISI_API_KEY")];
    store[fallbackPath("KISI_API_KEY")] = "fallback";
    const env = boundEnv({ STAFF_URL: "https://staff.example.nz", JOIN_URL: "https://join.example.nz" });
    const ssm = fakeSsm(store);

    await resolveBindings(env, ssm.read);

    expect(env.KISI_API_KEY).toBe("fallback");
    expect(env.SESSION_SECRET).toBe("stage");
    expect(ssm.calls[1]).toEqual([fallbackPath("KISI_API_KEY")]);
  });

  it("names every missing secret and how to set it", async () => {
    const env = boundEnv({ STAFF_URL: "x", JOIN_URL: "y" });
    const store = Object.fromEntries(secretNames.map((n) => [stagePath(n), "v"]));
    delete store[stagePath("STRIPE_SECRET_KEY")];
    delete store[stagePath("AKAHU_APP_TOKEN")];

    await expect(resolveBindings(env, fakeSsm(store).read)).rejects.toThrow(
      /stage "prod": STRIPE_SECRET_KEY, AKAHU_APP_TOKEN.*npx sst secrets set NAME value --stage prod/,
    );
  });

  it("leaves variables already set alone and asks SSM only for the rest", () => {
    const env = boundEnv({ STAFF_URL: "https://staff.example.nz", SESSION_SECRET: "local" });
    const targets = pendingBindings(env).map((b) => b.target);
    expect(targets).not.toContain("STAFF_URL");
    expect(targets).not.toContain("SESSION_SECRET");
    expect(targets).toContain("JOIN_URL");
    expect(targets).toContain("ENCRYPTION_KEY");
  });

  it("does nothing (and never calls SSM) when nothing is bound, as locally", async () => {
    const read = vi.fn<ParameterReader>();
    const env: Record<string, string | undefined> = { TABLE_NAME: "local", SST_Secret_value_X: "plain" };
    await resolveBindings(env, read);
    expect(read).not.toHaveBeenCalled();
  });

  it("loadSecrets is a no-op outside AWS and shares one load between callers", async () => {
    const { loadSecrets } = await import("../../packages/functions/src/aws/secrets");
    const first = loadSecrets();
    expect(loadSecrets()).toBe(first);
    await expect(first).resolves.toBeUndefined();
  });
});

describe("the SSM reader", () => {
  it("calls GetParameters signed for ssm in the function's region, 10 names a call, decrypted", async () => {
    const requests: { headers: IncomingHttpHeaders; body: { Names: string[]; WithDecryption: boolean } }[] =
      [];
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => {
        raw += chunk;
      });
      req.on("end", () => {
        const body = JSON.parse(raw);
        requests.push({ headers: req.headers, body });
        const Parameters = body.Names.filter((n: string) => !n.includes("missing")).map((Name: string) => ({
          Name,
          Value: `v:${Name}`,
          Type: "SecureString",
        }));
        res.setHeader("content-type", "application/x-amz-json-1.1");
        res.end(JSON.stringify({ Parameters, InvalidParameters: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const read = ssmParameterReader({
        endpoint: `http://127.0.0.1:${port}`,
        region: "ap-southeast-2",
        credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token" },
      });
      const names = Array.from({ length: 12 }, (_, i) => `/sst/gym-platform/prod/Secret/S${i}/value`);
      const values = await read([...names, "/sst/gym-platform/prod/Secret/missing/value"]);

      expect(Object.keys(values).sort()).toEqual([...names].sort());
      expect(values[names[0]]).toBe(`v:${names[0]}`);
      expect(requests.map((r) => r.body.Names.length)).toEqual([10, 3]);
      for (const { headers, body } of requests) {
        expect(body.WithDecryption).toBe(true);
        expect(headers["x-amz-target"]).toBe("AmazonSSM.GetParameters");
        expect(headers["content-type"]).toBe("application/x-amz-json-1.1");
        expect(headers["x-amz-security-token"]).toBe("token");
        expect(headers.authorization).toMatch(
          /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/ssm\/aws4_request, /,
        );
      }
    } finally {
      server.close();
    }
  });

  it("fails loudly when SSM refuses", async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ __type: "AccessDeniedException", message: "not authorized" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const read = ssmParameterReader({
        endpoint: `http://127.0.0.1:${port}`,
        credentials: { accessKeyId: "a", secretAccessKey: "b" },
      });
      await expect(read(["/x"])).rejects.toThrow(/GetParameters failed with 400: .*AccessDenied/);
    } finally {
      server.close();
    }
  });
});
