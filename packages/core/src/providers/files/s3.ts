import { type AwsCallOptions, awsClient } from "../aws";
import type { FileStore } from "./port";

/**
 * Files in the stage's private uploads bucket (served through the API, never public): S3's
 * PutObject and GetObject as signed HTTPS calls.
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
  };
}
