import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

/** Member registration (join) site. Locally on JOIN_PORT (3001) with `/api` proxied to the API, as CloudFront does. */
const port = Number(process.env.JOIN_PORT ?? 3001);
const api: Record<string, ProxyOptions> = {
  "/api": { target: process.env.API_URL ?? "http://localhost:3100", xfwd: true },
};

export default defineConfig({
  plugins: [react()],
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
