import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";
import { shellPages } from "../packages/web/src/build/shell-pages";

/** Staff back office. Locally on STAFF_PORT (3000) with `/api` proxied to the API, as CloudFront does. */
const port = Number(process.env.STAFF_PORT ?? 3000);
const api: Record<string, ProxyOptions> = {
  "/api": { target: process.env.API_URL ?? "http://localhost:3100", xfwd: true },
};

export default defineConfig({
  // index.html is the sign-in page, usable before any JavaScript or stylesheet has arrived (its
  // shell; the stylesheets load after it); every other path gets app.html.
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
  },
});
