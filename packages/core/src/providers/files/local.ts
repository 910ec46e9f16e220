import { createHmac, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { config } from "../../config";
import { assertExportKey, attachment, type FileStore } from "./port";

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  csv: "text/csv; charset=utf-8",
  zip: "application/zip",
};

const typeOf = (key: string) => TYPES[key.split(".").pop() ?? ""] ?? "application/octet-stream";

function signature(key: string, expires: number): string {
  return createHmac("sha256", config.secret("SESSION_SECRET"))
    .update(`download:${key}:${expires}`)
    .digest("base64url");
}

/** Files in a local folder; the content type comes from the extension. */
export function localFileStore(dir: string): FileStore {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new Error("File key escapes the uploads folder");
    return path;
  };
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
    },
    async get(key) {
      try {
        const body = await readFile(pathOf(key));
        return { body, contentType: typeOf(key) };
      } catch {
        return null;
      }
    },
    async putStream(key, chunks) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      let bytes = 0;
      const counted = (async function* () {
        for await (const chunk of chunks) {
          bytes += chunk.byteLength;
          yield chunk;
        }
      })();
      await pipeline(Readable.from(counted), createWriteStream(path));
      return bytes;
    },
    async signedDownloadPath(key, expiresInSeconds) {
      assertExportKey(key);
      const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
      const path = key.split("/").map(encodeURIComponent).join("/");
      return `/${path}?expires=${expires}&signature=${signature(key, expires)}`;
    },
  };
}

/**
 * The local stand-in for CloudFront + S3 serving a signed export address: checks the signature
 * and expiry, then streams the file with its download name. Null when the address is not valid
 * (the caller answers 403, as S3 does).
 */
export async function openSignedDownload(
  dir: string,
  pathname: string,
  query: URLSearchParams,
): Promise<{ stream: ReadableStream<Uint8Array>; headers: Record<string, string> } | null> {
  const key = pathname.replace(/^\//, "").split("/").map(decodeURIComponent).join("/");
  try {
    assertExportKey(key);
  } catch {
    return null;
  }
  const expires = Number(query.get("expires"));
  const given = Buffer.from(query.get("signature") ?? "");
  const expected = Buffer.from(signature(key, expires));
  if (!Number.isInteger(expires) || expires * 1000 < Date.now()) return null;
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const root = resolve(dir);
  const path = resolve(root, key);
  if (!path.startsWith(root + sep)) return null;
  const info = await stat(path).catch(() => null);
  if (!info) return null;
  return {
    stream: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
    headers: {
      "Content-Type": typeOf(key),
      "Content-Length": String(info.size),
      "Content-Disposition": attachment(key.split("/").pop() ?? "export.csv"),
      "Cache-Control": "private, no-store",
    },
  };
}
