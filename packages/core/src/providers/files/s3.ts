import { type AwsCallOptions, awsClient } from "../aws";
import { assertExportKey, attachment, type FileStore } from "./port";

/** S3's smallest part (bar the last) is 5 MiB; 8 MiB keeps part counts low for big exports. */
export const PART_BYTES = 8 * 1024 * 1024;

/**
 * Files in the stage's private uploads bucket (never public): S3's PutObject, GetObject and
 * multipart upload as signed HTTPS calls. Logos and pictures are served through the API; exports
 * by presigned GET through the staff distribution's `/exports/*` behaviour, whose origin is this
 * bucket's regional endpoint (so the signed Host matches; infra/web.ts).
 */
export function s3FileStore(bucket: string, options: AwsCallOptions = {}): FileStore {
  const { region, client } = awsClient("s3", options);
  const base = options.endpoint
    ? `${options.endpoint}/${bucket}`
    : `https://${bucket}.s3.${region}.amazonaws.com`;
  const url = (key: string) => `${base}/${key.split("/").map(encodeURIComponent).join("/")}`;
  return {
    async put(key, body, contentType) {
      const response = await client.fetch(url(key), {
        method: "PUT",
        headers: { "content-type": contentType, "cache-control": "public, max-age=31536000, immutable" },
        body: body as Uint8Array<ArrayBuffer>,
      });
      if (!response.ok) throw new Error(`S3 PutObject ${key} failed with ${response.status}`);
    },
    async get(key) {
      const response = await client.fetch(url(key), { method: "GET" });
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`S3 GetObject ${key} failed with ${response.status}`);
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get("content-type") ?? "application/octet-stream",
      };
    },
    async putStream(key, chunks, meta) {
      const headers = {
        "content-type": meta.contentType,
        "content-disposition": attachment(meta.downloadName),
      };
      let buffered: Uint8Array[] = [];
      let size = 0;
      let total = 0;
      let uploadId: string | undefined;
      const parts: string[] = [];
      const call = async (query: string, init: RequestInit, what: string) => {
        const response = await client.fetch(`${url(key)}${query}`, init);
        if (!response.ok) throw new Error(`S3 ${what} ${key} failed with ${response.status}`);
        return response;
      };
      const flushPart = async () => {
        if (!uploadId) {
          const created = await call("?uploads", { method: "POST", headers }, "CreateMultipartUpload");
          uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1];
          if (!uploadId) throw new Error(`S3 CreateMultipartUpload ${key} answered no UploadId`);
        }
        const body = Buffer.concat(buffered);
        buffered = [];
        size = 0;
        const n = parts.length + 1;
        const answer = await call(
          `?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`,
          { method: "PUT", body },
          "UploadPart",
        );
        parts.push(answer.headers.get("etag") ?? "");
      };
      try {
        for await (const chunk of chunks) {
          buffered.push(chunk);
          size += chunk.byteLength;
          total += chunk.byteLength;
          if (size >= PART_BYTES) await flushPart();
        }
        if (!uploadId) {
          await call("", { method: "PUT", headers, body: Buffer.concat(buffered) }, "PutObject");
          return total;
        }
        if (size > 0) await flushPart();
        const xml = `<CompleteMultipartUpload>${parts
          .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
          .join("")}</CompleteMultipartUpload>`;
        const done = await call(
          `?uploadId=${encodeURIComponent(uploadId)}`,
          { method: "POST", headers: { "content-type": "application/xml" }, body: xml },
          "CompleteMultipartUpload",
        );
        // S3 can answer 200 with an error document when completing.
        if (/<Error>/.test(await done.text())) throw new Error(`S3 CompleteMultipartUpload ${key} failed`);
        return total;
      } catch (error) {
        if (uploadId)
          await client
            .fetch(`${url(key)}?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" })
            .catch(() => undefined);
        throw error;
      }
    },
    async signedDownloadPath(key, expiresInSeconds) {
      assertExportKey(key);
      const signed = await client.sign(`${url(key)}?X-Amz-Expires=${expiresInSeconds}`, {
        method: "GET",
        aws: { signQuery: true },
      });
      const address = new URL(signed.url);
      // Path-style stand-ins put the bucket first; the staff site's /exports/* maps to the key.
      const path = options.endpoint ? address.pathname.replace(`/${bucket}`, "") : address.pathname;
      return `${path}${address.search}`;
    },
  };
}
