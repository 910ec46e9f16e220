import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { spaRewrite } from "../../infra/web";
import joinConfig from "../../web-join/vite.config";
import staffConfig from "../../web-staff/vite.config";
import { sitesBuilt } from "../support/build-sites";

// The infra project's global setup builds both sites beside the run's first files (build-sites.ts):
// on a loaded machine that can take minutes.
beforeAll(() => sitesBuilt(inject("sitesBuildStatus"), 600_000), 610_000);

/**
 * A site's build output. The infra project's global setup builds both sites
 * (tests/support/build-sites.ts) unless E2E_SKIP_BUILD=1 says an earlier run did; a missing build
 * fails here rather than skipping what the build ships (issue 39).
 */
function built(dir: string): string {
  const dist = path.resolve(dir, "dist");
  if (!existsSync(path.join(dist, "index.html")))
    throw new Error(
      `${dir}/dist is not built: run \`npm run build:web\` or this project without E2E_SKIP_BUILD=1`,
    );
  return dist;
}

/**
 * What the sites ship: no source maps (the review found them served publicly), and nothing the
 * Content-Security-Policy would block (`script-src 'self'`: no inline script in the page).
 */
describe.each([
  ["web-staff", staffConfig],
  ["web-join", joinConfig],
] as const)("%s build", (dir, config) => {
  it("makes no source maps", () => {
    expect((config as { build?: { sourcemap?: unknown } }).build?.sourcemap).toBe(false);
  });

  it("built: no .map files, and only same-origin module scripts in the page", () => {
    const dist = built(dir);
    const files = readdirSync(dist, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const html = readFileSync(path.join(dist, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/[^/]/);
      expect(body.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

/**
 * The join site's `/` paints the register page from index.html before its JavaScript runs, and
 * the staff site's `/login` (and `/`, which goes there) the sign-in page (prerendered shells);
 * every other path must get app.html, the same document without the shell.
 */
describe("the prerendered register and sign-in pages", () => {
  const rewrite = (site: Parameters<typeof spaRewrite>[0], uri: string) => {
    const handler = new Function(`${spaRewrite(site)}; return handler;`)() as (event: {
      request: { uri: string };
    }) => { uri: string };
    return handler({ request: { uri } }).uri;
  };

  it("CloudFront sends a shell page to index.html and the other pages to app.html; files stay", () => {
    expect(rewrite("join", "/")).toBe("/index.html");
    expect(rewrite("join", "/take-photo")).toBe("/app.html");
    expect(rewrite("join", "/login")).toBe("/app.html");
    expect(rewrite("join", "/assets/index-abc.js")).toBe("/assets/index-abc.js");
    expect(rewrite("staff", "/login")).toBe("/index.html");
    expect(rewrite("staff", "/")).toBe("/index.html");
    expect(rewrite("staff", "/members")).toBe("/app.html");
    expect(rewrite("staff", "/assets/index-abc.js")).toBe("/assets/index-abc.js");
  });

  it("built: the staff index.html carries the sign-in shell, its early script, its stylesheets after it; app.html neither", () => {
    const dist = built("web-staff");
    const index = readFileSync(path.join(dist, "index.html"), "utf8");
    const app = readFileSync(path.join(dist, "app.html"), "utf8");
    expect(index).toContain('<form aria-label="Sign in" data-shell-form>');
    expect(index).toContain('<script src="/login-shell.js" async');
    expect(existsSync(path.join(dist, "login-shell.js"))).toBe(true);
    expect(index.indexOf('rel="stylesheet"')).toBeGreaterThan(index.indexOf("data-shell-form"));
    expect(app).not.toContain("data-shell");
    expect(app).not.toContain("login-shell.js");
    expect(app.indexOf('rel="stylesheet"')).toBeLessThan(app.indexOf("</head>"));
  });

  it("built: index.html carries the register shell, its early script, its stylesheets after it; app.html neither", () => {
    const dist = built("web-join");
    const index = readFileSync(path.join(dist, "index.html"), "utf8");
    const app = readFileSync(path.join(dist, "app.html"), "utf8");
    expect(index).toContain("<h1>Become a member</h1>");
    expect(index).toContain('<form aria-label="Create your account" data-shell-form hidden>');
    expect(index).toContain('<script src="/register-shell.js" async');
    expect(existsSync(path.join(dist, "register-shell.js"))).toBe(true);
    expect(index.indexOf('rel="stylesheet"')).toBeGreaterThan(index.indexOf("data-shell-form"));
    expect(app).not.toContain("Become a member");
    expect(app).not.toContain("data-shell");
    expect(app).not.toContain("register-shell.js");
    expect(app.indexOf('rel="stylesheet"')).toBeLessThan(app.indexOf("</head>"));
    // The same app code in both.
    const modules = (html: string) =>
      [...html.matchAll(/<script type="module"[^>]*>|<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
    expect(modules(app)).toEqual(modules(index));
  });
});
