import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import joinConfig from "../../web-join/vite.config";
import staffConfig from "../../web-staff/vite.config";

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

  it.runIf(existsSync(path.resolve(dir, "dist/index.html")))(
    "when built: no .map files, and only same-origin module scripts in the page",
    () => {
      const dist = path.resolve(dir, "dist");
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
    },
  );
});
