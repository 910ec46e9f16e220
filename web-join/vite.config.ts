import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";

/** Member registration (join) site. Locally on JOIN_PORT (3001) with `/api` proxied to the API, as CloudFront does. */
const port = Number(process.env.JOIN_PORT ?? 3001);
const api: Record<string, ProxyOptions> = {
  "/api": { target: process.env.API_URL ?? "http://localhost:3100", xfwd: true },
};

/**
 * index.html carries a prerendered shell of the register page (between `<!--shell-->` marks) so
 * `/` paints before any JavaScript runs. Every other path is another page: it gets `app.html`,
 * the same document without the shell (the local server and CloudFront's rewrite send every
 * path but `/` there), so no page flashes the register page's heading.
 */
export function withoutShell(html: string): string {
  return html.replace(/[ \t]*<!--shell-->[\s\S]*?<!--\/shell-->\n?/g, "");
}

function appHtml(): Plugin {
  return {
    name: "join-app-html",
    apply: "build",
    enforce: "post",
    generateBundle(_, bundle) {
      const index = bundle["index.html"];
      if (index?.type !== "asset") throw new Error("join-app-html: no index.html in the build");
      this.emitFile({ type: "asset", fileName: "app.html", source: withoutShell(String(index.source)) });
    },
  };
}

export default defineConfig({
  plugins: [react(), appHtml()],
  server: { port, strictPort: true, proxy: api },
  preview: { port, strictPort: true, proxy: api },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Source maps are not shipped to the public sites (they would publish the source).
    sourcemap: false,
    // Pages are split per route (see src/app/router.tsx); the entry holds React, the router and the providers.
    chunkSizeWarningLimit: 600,
    // Every browser the site supports preloads modules itself (Safari since 17); the polyfill
    // would cost the first download ~0.5 KB gzip (issue 12's 120 KB budget).
    modulePreload: { polyfill: false },
  },
});
