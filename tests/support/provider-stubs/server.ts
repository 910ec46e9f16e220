import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny HTTP server on 127.0.0.1 standing in for a provider's API in tests. Routes get the
 * parsed request and answer with a status and a JSON body. Every request is recorded so a
 * test can check what the adapter sent.
 */
export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export type StubRoute = (req: StubRequest) => { status: number; body: unknown } | null;

export interface Stub {
  url: string;
  port: number;
  requests: StubRequest[];
  close(): Promise<void>;
}

export async function startStub(route: StubRoute): Promise<Stub> {
  const requests: StubRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request: StubRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const answer = route(request) ?? {
        status: 404,
        body: { error: "not_found", message: `No stub for ${request.method} ${request.path}` },
      };
      if (answer.status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function basicAuth(header: string | undefined): { user: string; password: string } | null {
  if (!header?.startsWith("Basic ")) return null;
  const [user, password] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":");
  return { user, password };
}
