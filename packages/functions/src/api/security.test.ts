import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";

/** The security review's header, input, body-size, origin and dev-route findings, replayed. */
const api = useTestApi();

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["APP_ENV", "ORIGIN_SECRET", "SESSION_SECRET", "ENCRYPTION_KEY"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("API headers", () => {
  it("sends Cache-Control: no-store and nosniff on every /api answer, errors included", async () => {
    const { API_HEADERS } = await import("@gym/core/security/headers");
    expect(API_HEADERS).toMatchObject({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
    const client = api.client();
    for (const answer of [
      await client.get("/api/health"),
      await client.get("/api/me"), // 401
      await client.get("/api/no-such-thing"), // 404
      await client.post("/api/login", { email: "", password: "" }), // 422
    ]) {
      for (const [name, value] of Object.entries(API_HEADERS)) expect(answer.headers.get(name)).toBe(value);
    }
  });
});

describe("inputs that answered 500", () => {
  it("answers 422 to control characters in a site redirect's path", async () => {
    for (const path of ["/%0d%0aX", "/%0aSet-Cookie:x=1", "/a%00b", "/%7f"]) {
      const res = await api.client().get(`/api/sites/staff?path=${path}`);
      expect(res.status, path).toBe(422);
      expect(res.headers.get("location")).toBeNull();
    }
    expect((await api.client().get("/api/sites/staff?path=/gyms%3Fx%3D1")).status).toBe(302);
  });
});

/**
 * A POST over a plain socket that resolves with the status as soon as the server answers: a
 * server that refuses a body early closes the connection while it is still being sent, which
 * fetch reports as a failure.
 */
function post(url: string, chunks: Buffer[], headers: Record<string, string> = {}) {
  return new Promise<number>((done, fail) => {
    const req = request(url, { method: "POST", headers, agent: false }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on("error", (error) => setTimeout(() => fail(error), 500));
    (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
      }
      req.end();
    })().catch(() => undefined);
  });
}

describe("body size", () => {
  it("answers 413 to a provider webhook over 256 KB, by Content-Length and when streamed", async () => {
    const big = Buffer.from(JSON.stringify({ id: "evt_big", pad: "x".repeat(300 * 1024) }));
    for (const provider of ["stripe", "akahu", "kisi/some-secret"]) {
      const status = await post(`${api.url}/api/webhooks/${provider}`, [big], {
        "content-type": "application/json",
        "content-length": String(big.length),
      });
      expect(status, provider).toBe(413);
    }
    // No Content-Length (chunked): the body is counted as it streams and cut off at the limit.
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(16 * 1024, 120));
    expect(await post(`${api.url}/api/webhooks/stripe`, chunks, { "transfer-encoding": "chunked" })).toBe(
      413,
    );
    // A body under the limit still reaches the receiver (a bad signature: 400, recorded).
    expect(await post(`${api.url}/api/webhooks/stripe`, [Buffer.from("{}")], { "content-length": "2" })).toBe(
      400,
    );
  });

  it("answers 413 to any API body over 6 MB before reading it", async () => {
    const big = Buffer.alloc(7 * 1024 * 1024, 1);
    const status = await post(`${api.url}/api/gyms/any/logo`, [big], {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(big.length),
      "x-requested-with": "XMLHttpRequest",
    });
    expect(status).toBe(413);
    const chunked = Array.from({ length: 8 }, () => Buffer.alloc(1024 * 1024, 1));
    expect(
      await post(`${api.url}/api/gyms/any/logo`, chunked, {
        "content-type": "multipart/form-data; boundary=x",
        "transfer-encoding": "chunked",
        "x-requested-with": "XMLHttpRequest",
      }),
    ).toBe(413);
  });
});

describe("developer routes", () => {
  it("answer only a loopback Host", async () => {
    const { app } = await import("../local/app");
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "staff.localhost"]) {
      const res = await app.request("/api/dev/mail", { headers: { host } });
      expect(res.status, host).toBe(200);
    }
    for (const host of ["evil.example", "192.168.1.20:3000", "localhost.evil.example", "127.0.0.1.nip.io"]) {
      const res = await app.request("/api/dev/mail", { headers: { host } });
      expect(res.status, host).toBe(404);
      const sim = await app.request("/api/dev/stripe/authorize?redirect_uri=x&state=y", {
        headers: { host },
      });
      expect(sim.status, host).toBe(404);
    }
  });

  it("are not mounted at all unless APP_ENV names local mode", async () => {
    const { createApp } = await import("../local/app");
    process.env.ORIGIN_SECRET = "origin-secret-for-test";
    for (const appEnv of [undefined, "", "Local", "prod", "aws"]) {
      if (appEnv === undefined) delete process.env.APP_ENV;
      else process.env.APP_ENV = appEnv;
      const res = await createApp().request("/api/dev/mail", {
        headers: { host: "localhost", "x-origin-verify": "origin-secret-for-test" },
      });
      expect(res.status, String(appEnv)).toBe(404);
    }
  });
});

describe("configuration fails closed", () => {
  it("treats a missing or mistyped APP_ENV as production: no development secrets, no simulators", async () => {
    const { config } = await import("@gym/core/config");
    for (const appEnv of [undefined, "", "locall", "production", "aws"]) {
      if (appEnv === undefined) delete process.env.APP_ENV;
      else process.env.APP_ENV = appEnv;
      delete process.env.SESSION_SECRET;
      expect(config.appEnv, String(appEnv)).toBe("aws");
      expect(config.isLocal).toBe(false);
      expect(() => config.secret("SESSION_SECRET")).toThrow(/not configured/);
      expect(config.missingSecrets()).toEqual(["SESSION_SECRET", "ENCRYPTION_KEY", "ORIGIN_SECRET"]);
    }
    for (const appEnv of ["local", "test"]) {
      process.env.APP_ENV = appEnv;
      expect(config.isLocal).toBe(true);
      expect(config.missingSecrets()).toEqual([]);
    }
  });

  it("a deployed function refuses to start without its secrets", async () => {
    const { refuseWithoutSecrets } = await import("../aws/secrets");
    delete process.env.APP_ENV;
    process.env.SESSION_SECRET = "s";
    delete process.env.ENCRYPTION_KEY;
    expect(() => refuseWithoutSecrets(["SESSION_SECRET", "ENCRYPTION_KEY"])).toThrow(
      /Refusing to run without ENCRYPTION_KEY/,
    );
    process.env.ENCRYPTION_KEY = "k";
    expect(() => refuseWithoutSecrets(["SESSION_SECRET", "ENCRYPTION_KEY"])).not.toThrow();
  });
});

describe("trusted client address in AWS", () => {
  it("refuses a direct call without CloudFront's origin secret, so the viewer address cannot be chosen", async () => {
    const { createApp } = await import("../local/app");
    process.env.APP_ENV = "aws";
    process.env.ORIGIN_SECRET = "cloudfront-origin-secret";
    process.env.SESSION_SECRET = "aws-session-secret";
    process.env.ENCRYPTION_KEY = "aws-encryption-key";
    const app = createApp();
    const login = (headers: Record<string, string>) =>
      app.request("/api/login", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-requested-with": "XMLHttpRequest",
          ...headers,
        },
        body: JSON.stringify({ email: "victim@example.com", password: "guess-guess" }),
      });
    // The review's attack: 40 failed logins, each claiming another viewer address, straight at
    // the execute-api address. None is even looked at.
    for (let i = 0; i < 40; i++) {
      const res = await login({ "cloudfront-viewer-address": `203.0.113.${i}:443` });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe("origin_not_allowed");
    }
    const wrongSecret = await login({ "x-origin-verify": "guess", "cloudfront-viewer-address": "1.2.3.4:1" });
    expect(wrongSecret.status).toBe(403);
    // Through CloudFront (the secret present), the viewer address CloudFront sets is used.
    const { ORIGIN_SECRET_HEADER } = await import("@gym/core/security/headers");
    const through = await login({
      [ORIGIN_SECRET_HEADER]: "cloudfront-origin-secret",
      "cloudfront-viewer-address": "198.51.100.7:443",
    });
    expect(through.status).toBe(422);
    // X-Forwarded-For is not trusted in AWS.
    const { clientAddress } = await import("./middleware/auth");
    const { Hono } = await import("hono");
    const probe = new Hono().get("/", (c) => c.text(clientAddress(c)));
    expect(await (await probe.request("/", { headers: { "x-forwarded-for": "10.0.0.1" } })).text()).toBe(
      "unknown",
    );
    expect(
      await (
        await probe.request("/", {
          headers: {
            [ORIGIN_SECRET_HEADER]: "cloudfront-origin-secret",
            "cloudfront-viewer-address": "[2001:db8::1]:443",
          },
        })
      ).text(),
    ).toBe("[2001:db8::1]");
  });
});

describe("site headers served locally", () => {
  it("sends the same CSP, frame-ancestors, nosniff and no-referrer as CloudFront, and no source maps", async () => {
    const { siteHeaders } = await import("@gym/core/security/headers");
    const { siteApp } = await import("../local/server");
    const dist = mkdtempSync(join(tmpdir(), "site-"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>t</title>");
    writeFileSync(join(dist, "app.js.map"), "{}");
    for (const site of ["staff", "join"] as const) {
      const app = siteApp(dist, site);
      for (const path of ["/", "/reset-password?token=abc", "/index.html"]) {
        const res = await app.request(path);
        expect(res.status, path).toBe(200);
        for (const [name, value] of Object.entries(siteHeaders(site)))
          expect(res.headers.get(name)).toBe(value);
      }
      expect((await app.request("/app.js.map")).status).toBe(404);
    }
    const staff = siteHeaders("staff")["Content-Security-Policy"];
    const joinCsp = siteHeaders("join")["Content-Security-Policy"];
    expect(staff).toMatch(/default-src 'self'/);
    expect(staff).toMatch(/frame-ancestors 'none'/);
    expect(staff).not.toMatch(/stripe/);
    expect(joinCsp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(joinCsp).toMatch(/frame-src https:\/\/js\.stripe\.com/);
    expect(joinCsp).toMatch(/connect-src 'self' https:\/\/api\.stripe\.com/);
    expect(siteHeaders("join")["Referrer-Policy"]).toBe("no-referrer");
  });
});
