import { existsSync } from "node:fs";
import type { Server } from "node:http";
import { relative, resolve } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { app as api } from "../api/app";
import { deliverSimulatedWebhooksInProcess } from "./webhook-delivery";

/**
 * The local stand-in for CloudFront: each site serves its own build and sends `/api/*` to the
 * one API app, so calls are same-origin and cookies first-party, exactly as in AWS.
 */
export function siteApp(distDir: string) {
  const site = new Hono();
  site.all("/api/*", (c) => api.fetch(c.req.raw));
  const root = relative(process.cwd(), distDir) || ".";
  site.use("/assets/*", serveStatic({ root }));
  site.use("*", serveStatic({ root }));
  // Client-side routes fall back to the app shell.
  site.get("*", serveStatic({ root, path: "index.html" }));
  return site;
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  hostname = "127.0.0.1",
) {
  return new Promise<Listening>((done, fail) => {
    let server: ServerType | undefined;
    server = serve({ fetch, port, hostname }, (info) => {
      done({
        url: `http://localhost:${info.port}`,
        close: () => new Promise((closed) => (server as Server).close(() => closed())),
      });
    });
    (server as Server).once("error", fail);
  });
}

export function serveApi(port: number) {
  deliverSimulatedWebhooksInProcess();
  return listen((request) => api.fetch(request), port);
}

export function serveSite(distDir: string, port: number) {
  deliverSimulatedWebhooksInProcess();
  const dist = resolve(distDir);
  if (!existsSync(resolve(dist, "index.html")))
    throw new Error(`No build at ${dist}: build the web app first.`);
  const site = siteApp(dist);
  return listen((request) => site.fetch(request), port);
}
