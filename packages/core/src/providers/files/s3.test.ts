import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3FileStore } from "./s3";

/**
 * A local stand-in for S3's object API (path-style): keeps objects in memory; PutObject,
 * GetObject and the multipart upload calls (create, upload part, complete, abort).
 */
const objects = new Map<string, { body: Buffer; type: string; disposition?: string }>();
const uploads = new Map<string, { type: string; disposition?: string; parts: Map<number, Buffer> }>();
const authorisations: string[] = [];
const calls: string[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    authorisations.push(String(req.headers.authorization ?? ""));
    const address = new URL(req.url ?? "/", "http://s3");
    const key = decodeURIComponent(address.pathname);
    const q = address.searchParams;
    const disposition = req.headers["content-disposition"] as string | undefined;
    if (req.method === "POST" && q.has("uploads")) {
      calls.push("create");
      const id = `upload-${uploads.size + 1}`;
      uploads.set(id, { type: String(req.headers["content-type"]), disposition, parts: new Map() });
      res
        .writeHead(200)
        .end(`<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      return;
    }
    if (req.method === "PUT" && q.has("partNumber")) {
      calls.push(`part ${q.get("partNumber")}`);
      uploads.get(q.get("uploadId")!)!.parts.set(Number(q.get("partNumber")), Buffer.concat(chunks));
      res.writeHead(200, { etag: `"etag-${q.get("partNumber")}"` }).end();
      return;
    }
    if (req.method === "POST" && q.has("uploadId")) {
      calls.push("complete");
      const upload = uploads.get(q.get("uploadId")!)!;
      const listed = [
        ...Buffer.concat(chunks)
          .toString()
          .matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>"etag-(\d+)"<\/ETag>/g),
      ];
      const body = Buffer.concat(listed.map(([, n]) => upload.parts.get(Number(n))!));
      objects.set(key, { body, type: upload.type, disposition: upload.disposition });
      res.writeHead(200).end("<CompleteMultipartUploadResult/>");
      return;
    }
    if (req.method === "PUT") {
      calls.push("put");
      objects.set(key, {
        body: Buffer.concat(chunks),
        type: String(req.headers["content-type"]),
        disposition,
      });
      res.writeHead(200).end();
      return;
    }
    const object = objects.get(key);
    if (!object) {
      res.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>NoSuchKey</Code></Error>");
      return;
    }
    res.writeHead(200, { "content-type": object.type }).end(object.body);
  });
});
let endpoint = "";
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" };

describe("S3 file store (against a local stand-in of S3's object API)", () => {
  it("puts and gets an object with its content type, signed for s3", async () => {
    const store = s3FileStore("uploads", { endpoint, credentials, region: "ap-southeast-2" });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await store.put("logos/org/gym/abc.png", png, "image/png");
    expect(objects.get("/uploads/logos/org/gym/abc.png")?.type).toBe("image/png");
    expect(authorisations[0]).toMatch(/Credential=AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/s3\/aws4_request/);
    const file = await store.get("logos/org/gym/abc.png");
    expect(file?.contentType).toBe("image/png");
    expect([...(file?.body ?? [])]).toEqual([...png]);
  });

  it("answers null for a missing object", async () => {
    expect(await s3FileStore("uploads", { endpoint, credentials }).get("logos/none.png")).toBeNull();
  });

  it("streams a large export as a multipart upload, parts in order, with its download name", async () => {
    calls.length = 0;
    const store = s3FileStore("uploads", { endpoint, credentials });
    const line = `${"x".repeat(1023)}\n`;
    const total = 20 * 1024; // 20 MiB in 1 KiB chunks: parts of 8 + 8 + 4 MiB
    const bytes = await store.putStream(
      "exports/org/1/members-2026-11-23.csv",
      (async function* () {
        for (let i = 0; i < total; i++)
          yield new TextEncoder().encode(i === 0 ? `first${line.slice(5)}` : line);
      })(),
      { contentType: "text/csv; charset=utf-8", downloadName: "members-2026-11-23.csv" },
    );
    expect(bytes).toBe(total * 1024);
    expect(calls).toEqual(["create", "part 1", "part 2", "part 3", "complete"]);
    const object = objects.get("/uploads/exports/org/1/members-2026-11-23.csv")!;
    expect(object.body.length).toBe(total * 1024);
    expect(object.body.subarray(0, 5).toString()).toBe("first");
    expect(object.disposition).toBe('attachment; filename="members-2026-11-23.csv"');
  });

  it("writes a small export in one PUT", async () => {
    calls.length = 0;
    const store = s3FileStore("uploads", { endpoint, credentials });
    await store.putStream(
      "exports/org/2/visits.csv",
      (async function* () {
        yield new TextEncoder().encode("a,b\n");
      })(),
      { contentType: "text/csv; charset=utf-8", downloadName: "visits.csv" },
    );
    expect(calls).toEqual(["put"]);
    expect(objects.get("/uploads/exports/org/2/visits.csv")?.body.toString()).toBe("a,b\n");
  });

  it("presigns a short-lived GET of an export for the staff site's /exports/* path", async () => {
    const store = s3FileStore("uploads", { credentials, region: "ap-southeast-2" });
    const path = await store.signedDownloadPath("exports/org/1/members.csv", 300);
    expect(path).toMatch(/^\/exports\/org\/1\/members\.csv\?/);
    const q = new URL(path, "https://staff.example").searchParams;
    expect(q.get("X-Amz-Expires")).toBe("300");
    expect(q.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/s3\/aws4_request$/);
    expect(q.get("X-Amz-SignedHeaders")).toBe("host");
    expect(q.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    await expect(store.signedDownloadPath("logos/org/gym/a.png", 300)).rejects.toThrow(/exports/);
  });
});
