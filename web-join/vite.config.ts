import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";
import { shellPages } from "../packages/web/src/build/shell-pages";

/** Member registration (join) site. Locally on JOIN_PORT (3001) with `/api` proxied to the API, as CloudFront does. */
const port = Number(process.env.JOIN_PORT ?? 3001);
const api: Record<string, ProxyOptions> = {
  "/api": { target: process.env.API_URL ?? "http://localhost:3100", xfwd: true },
};

export default defineConfig({
  // index.html paints the register page before any JavaScript (its shell); other paths get app.html.
  plugins: [react(), shellPages({ stylesAfterShell: true })],
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
    // Everything the entry imports statically goes in one chunk (the entry's): split into the
    // entry, a React + Mantine chunk and an SWR chunk, the same code was ~1.5 KB gzip more, each
    // file compressed on its own (issue 12's 120 KB budget, docs/performance.md). Pages still
    // import what they share with it from the entry.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: "index", tags: ["$initial"] }] } } },
  },
});
