/**
 * Journals in Xero's manual journal import template (docs/accounting.md "The file"): the columns
 * `Narration, Date, Description, AccountCode, TaxRate, Amount, TrackingName1, TrackingOption1`,
 * dates `d/MM/yyyy`, amounts in dollars (positive debit, negative credit). Xero imports at most
 * 300 lines from a file, so more journals go into several files (a journal is never split), zipped.
 * Cells are written by exports/csv.ts (quoted; a gym named `=HYPERLINK(…)` stays text).
 */
import { XERO_LINES_PER_FILE, xeroJournalColumns } from "../contract/accounting";
import { csvRows } from "../exports/csv";
import { nzDate } from "../text";
import type { Journal } from "./journal";

/** The journals in files of at most `perFile` lines each, in order; a journal stays whole. */
export function splitJournals(journals: readonly Journal[], perFile = XERO_LINES_PER_FILE): Journal[][] {
  const files: Journal[][] = [];
  let current: Journal[] = [];
  let lines = 0;
  for (const journal of journals) {
    if (current.length && lines + journal.lines.length > perFile) {
      files.push(current);
      current = [];
      lines = 0;
    }
    current.push(journal);
    lines += journal.lines.length;
  }
  if (current.length || !files.length) files.push(current);
  return files;
}

/** One file's CSV: the template's header, then a row per line (no byte-order mark: Xero reads UTF-8). */
export async function journalsCsv(journals: readonly Journal[]): Promise<string> {
  const rows = journals.flatMap((journal) =>
    journal.lines.map((line) => [
      journal.narration,
      nzDate(journal.date),
      line.description,
      line.account,
      line.tax_rate,
      line.amount,
      journal.tracking_name,
      journal.tracking_option,
    ]),
  );
  return csvRows([[...xeroJournalColumns], ...rows]);
}

export interface JournalFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * The export's one file: `<base>.csv` when the journals fit in one file, else `<base>.zip` holding
 * `<base>-1.csv`, `<base>-2.csv` … (fflate, imported on the first zip: not at the API's cold start).
 */
export async function journalFile(base: string, journals: readonly Journal[]): Promise<JournalFile> {
  const parts = splitJournals(journals);
  const encoder = new TextEncoder();
  if (parts.length === 1) {
    return {
      name: `${base}.csv`,
      contentType: "text/csv; charset=utf-8",
      bytes: encoder.encode(await journalsCsv(parts[0])),
    };
  }
  const { zipSync } = await import("fflate");
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  // A fixed time in the zip, so the same journals make the same bytes whenever exported.
  const mtime = new Date("2000-01-01T00:00:00Z");
  for (const [i, part] of parts.entries()) {
    entries[`${base}-${i + 1}.csv`] = [encoder.encode(await journalsCsv(part)), { mtime }];
  }
  return { name: `${base}.zip`, contentType: "application/zip", bytes: zipSync(entries, { level: 6 }) };
}
