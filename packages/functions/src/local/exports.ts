import { config } from "@gym/core/config";
import { openSignedDownload } from "@gym/core/providers/files/local";
import type { Context } from "hono";

/**
 * `GET /exports/*` locally: what CloudFront's `/exports/*` behaviour and S3 do in AWS (serve an
 * export by its short-lived signed address; 403 when the signature or expiry is wrong, as S3
 * answers). Mounted on the staff site and on the bare API server (tests follow the redirect there).
 */
export async function serveExport(c: Context) {
  const url = new URL(c.req.url);
  const file = await openSignedDownload(config.uploadsDir, url.pathname, url.searchParams);
  if (!file) return c.text("Forbidden", 403);
  return new Response(file.stream, { status: 200, headers: file.headers });
}
