/**
 * CSV exports (members, payments, visits) leave as files, not response bodies: in AWS a Lambda
 * answer is capped at 6 MB and API Gateway waits 29 s, so a large organisation's export is written
 * to the uploads store as it is produced (one page of rows in memory at a time) and the call
 * answers 303 to a short-lived signed address on the staff site (docs/exports.md). Locally the
 * same path runs against the uploads folder.
 */

import { newId } from "../ids";
import { fileStore } from "../providers/files";

/** How long a download address works: long enough to follow the redirect, short enough to not leak. */
export const DOWNLOAD_SECONDS = 300;

export interface WrittenExport {
  /** Where the browser is redirected to (path and query on the staff site). */
  location: string;
  bytes: number;
}

/**
 * Writes the chunks (a CSV's header first) to `exports/<organisation>/<id>/<fileName>`: text is
 * UTF-8, bytes go as they are (the journals' zip: `contentType` says which file it is).
 */
export async function writeExport(
  organisationId: string,
  fileName: string,
  chunks: AsyncIterable<string | Uint8Array>,
  contentType = "text/csv; charset=utf-8",
): Promise<WrittenExport> {
  const key = `exports/${organisationId}/${newId()}/${fileName}`;
  const encoder = new TextEncoder();
  const bytes = await fileStore().putStream(
    key,
    (async function* () {
      for await (const chunk of chunks) yield typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    })(),
    { contentType, downloadName: fileName },
  );
  return { location: await fileStore().signedDownloadPath(key, DOWNLOAD_SECONDS), bytes };
}
