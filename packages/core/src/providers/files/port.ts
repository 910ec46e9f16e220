/**
 * Uploaded and generated files: S3 in AWS, a local folder (`UPLOADS_DIR`, default `.data/uploads`)
 * elsewhere. Keys are paths:
 *  - `logos/<organisation>/<gym>/<hash>.png`, `profile-pictures/...`: content-addressed, so every
 *    URL is immutable; served through the API;
 *  - `exports/<organisation>/<id>/<file name>.csv`: CSV exports written as they stream, handed to
 *    the browser by a short-lived signed address on the staff site (docs/exports.md).
 */
export interface StoredFile {
  body: Uint8Array;
  contentType: string;
}

export interface StreamedFileMeta {
  contentType: string;
  /** Sent as `Content-Disposition: attachment; filename="…"` when the file is downloaded. */
  downloadName: string;
}

export interface FileStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /**
   * Writes a file from chunks as they come, holding at most one part in memory (S3: a multipart
   * upload of 8 MB parts, or one PUT when smaller). Answers the bytes written.
   */
  putStream(key: string, chunks: AsyncIterable<Uint8Array>, meta: StreamedFileMeta): Promise<number>;
  /**
   * A short-lived address of an `exports/` file on the staff site (path and query, no host): in AWS
   * a presigned S3 GET served through the staff distribution's `/exports/*` behaviour; locally an
   * HMAC-signed path the local server checks.
   */
  signedDownloadPath(key: string, expiresInSeconds: number): Promise<string>;
}

/** Exports are the only files handed out by signed address. */
export const EXPORTS_PREFIX = "exports/";

export function assertExportKey(key: string) {
  if (!key.startsWith(EXPORTS_PREFIX) || key.includes(".."))
    throw new Error(`Only ${EXPORTS_PREFIX} files have download addresses`);
}

export function attachment(name: string): string {
  return `attachment; filename="${name.replace(/["\\\r\n]/g, "_")}"`;
}
