import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener, type Server } from "node:http";
import { relative, resolve } from "node:path";
import { API_BODY_LIMIT_BYTES, SHELL_PAGES, type Site, siteHeaders } from "@gym/core/security/headers";
import { type ServerType, serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { app as api } from "./app";
import { serveExport } from "./exports";

/**
 * The local stand-in for CloudFront: each site serves its own build and sends `/api/*` to the
 * one API app, so calls are same-origin and cookies first-party, exactly as in AWS. Pages and
 * files get the site's security headers (core/security/headers.ts), as CloudFront's response
 * headers policy adds them; the API sets its own.
 */
export function siteApp(distDir: string, which: Site) {
  const site = new Hono();
  site.all("/api/*", (c) => api.fetch(c.req.raw));
  if (which === "staff") site.get("/exports/*", serveExport);
  const headers = siteHeaders(which);
  site.use("*", async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
  // Source maps are not shipped (the builds make none); never serve one that is lying around.
  site.use("*", async (c, next) => (c.req.path.endsWith(".map") ? c.text("Not found", 404) : next()));
  const root = relative(process.cwd(), distDir) || ".";
  // Compressed as CloudFront sends them (gzip), so local page-load figures mean something; the API
  // above answers first and is not touched.
  site.use("*", compress({ encoding: "gzip" }));
  site.use("/assets/*", serveStatic({ root }));
  site.use("*", serveStatic({ root }));
  // Client-side routes fall back to the app: a page with a prerendered shell (SHELL_PAGES: the join
  // site's register page, the staff sign-in page) gets index.html, which paints it before the
  // JavaScript; every other path gets `app.html`, the document without that shell, as
  // CloudFront's rewrite sends them in infra/web.ts.
  const fallback = existsSync(resolve(distDir, "app.html")) ? "app.html" : "index.html";
  for (const path of SHELL_PAGES[which]) site.get(path, serveStatic({ root, path: "index.html" }));
  site.get("*", serveStatic({ root, path: fallback }));
  return site;
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/**
 * Lambda hands the API a request's whole body; the local server does the same: a request's body
 * is read to its end before the app sees it (as `rawBody`, which @hono/node-server uses as the
 * body). An answer given from the headers alone (a 401, a 403) then leaves nothing unread on a
 * keep-alive connection. Left unread, the app's request stream held the body paused, the
 * server's drain of it gave up after 500 ms and closed the connection under whatever request
 * came next on it: the `UND_ERR_SOCKET` resets a load of mixed requests saw.
 * A body over the API's limit is not read: the app answers 413 from Content-Length, or from the
 * first limit + 1 bytes of a body sent without one, and the connection closes after that answer.
 */
export function wholeBodies(listener: RequestListener): RequestListener {
  return (incoming, outgoing) => {
    if (incoming.method === "GET" || incoming.method === "HEAD") return listener(incoming, outgoing);
    const declared = Number(incoming.headers["content-length"] ?? Number.NaN);
    if (declared > API_BODY_LIMIT_BYTES) {
      outgoing.shouldKeepAlive = false;
      return listener(incoming, outgoing);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let handed = false;
    const hand = (keepAlive: boolean) => {
      if (handed) return;
      handed = true;
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      if (!keepAlive) {
        incoming.pause();
        outgoing.shouldKeepAlive = false;
      }
      (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = Buffer.concat(chunks, size);
      listener(incoming, outgoing);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > API_BODY_LIMIT_BYTES) hand(false);
    };
    const onEnd = () => hand(true);
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    // A caller that goes away mid-body gets no answer; the socket is already gone.
    incoming.once("error", () => {
      handed = true;
    });
  };
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  hostname = "127.0.0.1",
) {
  return new Promise<Listening>((done, fail) => {
    let server: ServerType | undefined;
    server = serve(
      {
        fetch,
        port,
        hostname,
        // Bodies are read whole before the app runs (wholeBodies), so there is nothing to drain.
        autoCleanupIncoming: false,
        createServer: ((options: object, listener: RequestListener) =>
          createServer(options, wholeBodies(listener))) as typeof createServer,
      },
      (info) => {
        done({
          url: `http://localhost:${info.port}`,
          close: () => new Promise((closed) => (server as Server).close(() => closed())),
        });
      },
    );
    (server as Server).once("error", fail);
  });
}

export function serveApi(port: number) {
  const local = new Hono();
  local.get("/exports/*", serveExport);
  local.all("*", (c) => api.fetch(c.req.raw));
  return listen((request) => local.fetch(request), port);
}

export function serveSite(distDir: string, port: number, which: Site) {
  const dist = resolve(distDir);
  if (!existsSync(resolve(dist, "index.html")))
    throw new Error(`No build at ${dist}: build the web app first.`);
  const site = siteApp(dist, which);
  return listen((request) => site.fetch(request), port);
}
