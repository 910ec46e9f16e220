import { ApiError } from "../api";

/**
 * Runs an export call (`POST /api/…/export`) and receives the file. The server writes the CSV to
 * the uploads store and answers 303 to its signed address; `fetch` follows that redirect, so the
 * answer here is the file itself (docs/exports.md). `onProgress` hears "preparing" until the file
 * starts arriving, then how many data rows have arrived.
 */
export async function downloadExport(
  path: string,
  body: Record<string, unknown>,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; fileName: string; rows: number }> {
  onProgress({ phase: "preparing", rows: 0 });
  const response = await fetch(path, {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { message?: string; error?: string };
    throw new ApiError({
      status: response.status,
      message: answer.message ?? "The export failed. Please try again.",
      code: answer.error,
      errors: {},
      body: answer,
    });
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "export.csv";
  const parts: Uint8Array[] = [];
  let lines = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      for (const byte of value) if (byte === 10) lines++;
      onProgress({ phase: "downloading", rows: Math.max(0, lines - 1) });
    }
  }
  const rows = Math.max(0, lines - 1);
  return { blob: new Blob(parts as BlobPart[], { type: "text/csv" }), fileName, rows };
}

export interface ExportProgress {
  phase: "preparing" | "downloading";
  rows: number;
}

/** Saves a blob as a file through a temporary link. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
