import { mkdtempSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { signIn, useSeededApi } from "../../../../tests/support/api";

/**
 * The local server keeps a keep-alive connection usable after any answer: a POST the API answers
 * before reading its body (a 401, a 403) must not leave the body half read, or the server closes
 * the connection a moment later under the next request on it (`UND_ERR_SOCKET` in a client that
 * reuses connections, as browsers and load tools do).
 */
const api = useSeededApi();

/** One HTTP/1.1 connection: write raw requests, read the answers' status codes in order. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname === "localhost" ? "127.0.0.1" : hostname);
  let received = "";
  let closed = false;
  socket.on("data", (chunk) => {
    received += chunk.toString("latin1");
  });
  socket.on("close", () => {
    closed = true;
  });
  socket.on("error", () => {});
  const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  return {
    ready: new Promise<void>((done) => socket.once("connect", () => done())),
    write: (text: string | Buffer) => new Promise<void>((done) => socket.write(text, () => done())),
    /** Waits until `count` answers have arrived (or the connection closed, or 5 s passed). */
    async answers(count: number) {
      const deadline = Date.now() + 5_000;
      while (statuses().length < count && !closed && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      return statuses();
    },
    closed: () => closed,
    end: () => socket.destroy(),
  };
}

function post(path: string, body: string, headers: Record<string, string>) {
  const lines = Object.entries({
    Host: "localhost",
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "keep-alive",
    ...headers,
  }).map(([name, value]) => `${name}: ${value}`);
  return { head: `POST ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`, body };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`;

describe("local server: keep-alive after an early answer", () => {
  it("keeps the connection after an anonymous POST answered before its body was read", async () => {
    const admin = await signIn(api.url, "admin@example.com");
    const connection = rawConnection(api.url);
    await connection.ready;
    try {
      // An admin POST, answered after reading its body.
      const search = post("/api/search", JSON.stringify({ query: "wa" }), {
        "X-Requested-With": "XMLHttpRequest",
        Cookie: admin.cookieHeader(),
      });
      await connection.write(search.head + search.body);
      expect(await connection.answers(1)).toEqual([200]);

      // An anonymous POST the API refuses from its headers alone (401, no session), with a body
      // large enough to arrive in several reads, sent after its headers as a browser may.
      const anonymous = post("/api/search", JSON.stringify({ query: "wa", note: "x".repeat(200_000) }), {
        "X-Requested-With": "XMLHttpRequest",
      });
      await connection.write(anonymous.head);
      await new Promise((r) => setTimeout(r, 50));
      await connection.write(anonymous.body);
      expect(await connection.answers(2)).toEqual([200, 401]);

      // The next requests on the same connection are answered, and it stays open.
      await connection.write(get("/api/health"));
      expect(await connection.answers(3)).toEqual([200, 401, 200]);
      await new Promise((r) => setTimeout(r, 800));
      expect(connection.closed()).toBe(false);
      await connection.write(get("/api/health"));
      expect(await connection.answers(4)).toEqual([200, 401, 200, 200]);
      expect(connection.closed()).toBe(false);
    } finally {
      connection.end();
    }
  });
});

describe("local server: the pages with a prerendered shell", () => {
  it("answers index.html for a site's shell pages (staff /login, join /) and app.html for every other page", async () => {
    const { siteApp } = await import("./server");
    const dist = mkdtempSync(join(tmpdir(), "site-"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>shell</title>");
    writeFileSync(join(dist, "app.html"), "<!doctype html><title>app</title>");
    const page = async (site: "staff" | "join", path: string) =>
      (await (await siteApp(dist, site).request(path)).text()).match(/<title>(\w+)/)?.[1];
    expect(await page("staff", "/")).toBe("shell");
    expect(await page("staff", "/login")).toBe("shell");
    expect(await page("staff", "/login?redirect=%2Fmembers")).toBe("shell");
    expect(await page("staff", "/members")).toBe("app");
    expect(await page("join", "/")).toBe("shell");
    expect(await page("join", "/login")).toBe("app");
    expect(await page("join", "/take-photo")).toBe("app");
  });
});
