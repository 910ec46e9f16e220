import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3FileStore } from "./s3";

/** A local stand-in for S3's object API (path-style): keeps objects in memory. */
const objects = new Map<string, { body: Buffer; type: string }>();
const authorisations: string[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    authorisations.push(String(req.headers.authorization ?? ""));
    const key = decodeURIComponent(req.url ?? "");
    if (req.method === "PUT") {
      objects.set(key, { body: Buffer.concat(chunks), type: String(req.headers["content-type"]) });
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
});
